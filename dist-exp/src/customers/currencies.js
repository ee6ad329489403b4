const EXPONENTS = {
    // ISO 4217 currencies without minor units.
    ...Object.fromEntries('BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' ').map((c) => [c, 0])),
    // Three decimals.
    ...Object.fromEntries('BHD IQD JOD KWD LYD OMR TND'.split(' ').map((c) => [c, 3])),
    // Four decimals.
    CLF: 4,
    UYW: 4,
    // Crypto tickers the reference uses (amounts in satoshis / 6-decimal units).
    BTC: 8,
    USDC: 6,
    USDT: 6,
};
const EXTRA = {
    BTC: { name: 'Bitcoin', symbol: '₿' },
    USDC: { name: 'USD Coin', symbol: 'USDC' },
    USDT: { name: 'Tether', symbol: 'USDT' },
};
const cache = new Map();
const names = new Intl.DisplayNames(['en'], { type: 'currency', fallback: 'code' });
function symbolOf(code) {
    try {
        const parts = new Intl.NumberFormat('en', {
            style: 'currency',
            currency: code,
            currencyDisplay: 'narrowSymbol',
        }).formatToParts(1);
        return parts.find((p) => p.type === 'currency')?.value ?? code;
    }
    catch {
        return code;
    }
}
function nameOf(code) {
    try {
        return names.of(code) ?? code;
    }
    catch {
        return code;
    }
}
export function currencyInfo(code) {
    let info = cache.get(code);
    if (!info) {
        const extra = EXTRA[code];
        info = {
            code,
            name: extra?.name ?? nameOf(code),
            symbol: extra?.symbol ?? symbolOf(code),
            decimals: EXPONENTS[code] ?? 2,
        };
        cache.set(code, info);
    }
    return info;
}
//# sourceMappingURL=currencies.js.map