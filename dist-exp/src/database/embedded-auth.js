import { createHash, timingSafeEqual } from 'node:crypto';
const PROTOCOL_3 = 196608;
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** A startup packet is small; a client that sends more before authenticating is not a client. */
const MAX_STARTUP_BYTES = 10_000;
/** A connection that has not authenticated by then is closed. */
const STARTUP_TIMEOUT_MS = 30_000;
/**
 * The startup phase of the PostgreSQL protocol, before PGlite sees a byte: answers SSL and GSS
 * requests with 'N', asks for the password (AuthenticationCleartextPassword: the socket is a Unix
 * socket in an owner-only directory, nothing crosses a network) and compares it in constant time
 * with the engine's per-start secret. Resolves the client's startup packet on success, for the
 * caller to hand to PGlite (which answers AuthenticationOk and the session parameters); on a wrong
 * password answers FATAL 28P01, closes the socket and resolves null.
 */
export function authenticateStartup(socket, secret) {
    const expected = digest(secret);
    return new Promise((resolve) => {
        let buffer = Buffer.alloc(0);
        let startup = null;
        const done = (result) => {
            socket.setTimeout(0);
            socket.off('timeout', onTimeout);
            socket.off('data', onData);
            socket.off('close', onClose);
            socket.off('error', onClose);
            resolve(result);
        };
        const refuse = (code, message) => {
            done(null);
            socket.end(errorResponse(code, message));
        };
        const onClose = () => done(null);
        const onTimeout = () => refuse('08P01', 'authentication timed out');
        const onData = (chunk) => {
            buffer = Buffer.concat([buffer, chunk]);
            if (buffer.length > MAX_STARTUP_BYTES)
                return refuse('08P01', 'startup packet too long');
            while (!startup && buffer.length >= 8) {
                const length = buffer.readInt32BE(0);
                const code = buffer.readInt32BE(4);
                if (length < 8 || length > MAX_STARTUP_BYTES)
                    return refuse('08P01', 'invalid startup packet length');
                if (buffer.length < length)
                    return;
                if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
                    socket.write('N');
                    buffer = buffer.subarray(length);
                }
                else if (code === PROTOCOL_3) {
                    startup = Buffer.from(buffer.subarray(0, length));
                    buffer = buffer.subarray(length);
                    socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3])); // 'R', AuthenticationCleartextPassword
                }
                else {
                    // CancelRequest (nothing to cancel in PGlite) or an unsupported protocol version.
                    return refuse(code === CANCEL_REQUEST ? '57014' : '0A000', 'unsupported request');
                }
            }
            if (!startup || buffer.length < 5)
                return;
            const length = buffer.readInt32BE(1);
            if (buffer[0] !== 0x70 || length < 5 || length > MAX_STARTUP_BYTES) {
                return refuse('08P01', 'expected a password message');
            }
            if (buffer.length < 1 + length)
                return;
            const password = buffer
                .subarray(5, 1 + length)
                .toString('utf8')
                .replace(/\0$/, '');
            if (!timingSafeEqual(digest(password), expected)) {
                return refuse('28P01', 'password authentication failed');
            }
            done(startup);
        };
        socket.on('data', onData);
        socket.on('close', onClose);
        socket.on('error', onClose);
        socket.setTimeout(STARTUP_TIMEOUT_MS, onTimeout);
    });
}
function digest(value) {
    return createHash('sha256').update(value).digest();
}
/** A FATAL ErrorResponse message. */
function errorResponse(code, message) {
    const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`, 'utf8');
    const header = Buffer.alloc(5);
    header[0] = 0x45; // 'E'
    header.writeInt32BE(4 + fields.length, 1);
    return Buffer.concat([header, fields]);
}
//# sourceMappingURL=embedded-auth.js.map