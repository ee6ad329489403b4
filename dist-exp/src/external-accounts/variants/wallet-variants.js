import { exactlyOne, object, oneOf, required, text } from './dsl.js';
import { WALLET_BENEFICIARY } from './beneficiaries.js';
import { PLATFORM_ACCOUNT_ID } from './field-rules.js';
/**
 * The 9 wallet variants. On-chain and Spark wallets share one shape (reference
 * `*WalletExternalAccountInfo` = address + optional beneficiary + optional vaspName); they differ in
 * the address format and the assets. LIGHTNING is its own shape (invoice | bolt12 | address).
 *
 * Assets: the reference's `Payment*WalletInfo.assetType` enums (Solana, Ethereum, Arbitrum:
 * USDC/USDT; Base, Polygon: USDC; Tron, Plasma: USDT; Spark: "BTC or a configured Spark token"),
 * plus each chain's native asset. Spark additionally takes USDB (the Spark stablecoin the spec's
 * card funding uses) and USDC/USDT tokens. Lightning: BTC.
 */
const BECH32_CHARS = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
/** EVM chains: `0x` + 40 hex digits, any case (checksum case is not enforced). */
export const EVM_ADDRESS = text({
    minLength: 42,
    maxLength: 42,
    pattern: '^0x[0-9a-fA-F]{40}$',
    format: 'evm-address',
});
export const SOLANA_ADDRESS = text({
    minLength: 32,
    maxLength: 44,
    pattern: `^${BASE58}{32,44}$`,
    format: 'solana-address',
});
export const TRON_ADDRESS = text({ minLength: 34, maxLength: 34, pattern: `^T${BASE58}{33}$`, format: 'tron-address' });
/** Spark: bech32m with a spark network prefix (spark1 / sparkrt1 / sparkt1 / sparks1 / sparkl1, and
 *  the older sp1 / sprt1 / spt1 / sps1 / spl1). The reference example's checksum does not verify,
 *  so only the shape is checked. */
export const SPARK_ADDRESS = singleCase(`^(spark|sparkrt|sparkt|sparks|sparkl|sp|sprt|spt|sps|spl)1[${BECH32_CHARS}]{20,}$`, 'spark-address', 128);
/** BOLT11 invoice: ln + network (bc, tb, tbs, bcrt, sb) + optional amount, then bech32 data. */
export const BOLT11_INVOICE = singleCase(`^ln(bc|tbs|tb|bcrt|sb)([0-9]+[munp]?)?1[${BECH32_CHARS}]{6,}$`, 'bolt11', 8192);
/** BOLT12 offer (lno1...). The reference's example is a BOLT11 string, so any `ln...1` bech32
 *  string is accepted here. */
export const BOLT12_OFFER = singleCase(`^ln[a-z0-9]*1[${BECH32_CHARS}]{6,}$`, 'bolt12', 8192);
export const LIGHTNING_ADDRESS = text({
    minLength: 3,
    maxLength: 320,
    pattern: '^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$',
    format: 'lightning-address',
});
/** A lower-case pattern that also accepts the all-upper-case spelling (QR-code form). */
function singleCase(pattern, format, maxLength) {
    const regex = new RegExp(pattern);
    return {
        ...text({ minLength: 8, maxLength, format }),
        pattern,
        check: (v) => (v === v.toLowerCase() || v === v.toUpperCase()) && regex.test(v.toLowerCase())
            ? undefined
            : `must be a valid ${format}`,
    };
}
function wallet(accountType, o) {
    return {
        accountType,
        family: 'wallet',
        currencies: o.currencies,
        rule: object({
            accountType: required(oneOf([accountType])),
            address: required(o.address),
            beneficiary: WALLET_BENEFICIARY,
            vaspName: text({ minLength: 1, maxLength: 255 }),
            platformAccountId: PLATFORM_ACCOUNT_ID,
        }),
        identity: { address: o.addressIdentity },
        verification: 'UNSUPPORTED',
        example: { accountType, address: o.exampleAddress },
        exampleCurrency: o.currencies[0] ?? 'USDC',
    };
}
const EVM_EXAMPLE = '0xAbCDEF1234567890aBCdEf1234567890ABcDef12';
const evm = (accountType, currencies) => wallet(accountType, { address: EVM_ADDRESS, addressIdentity: 'lower', currencies, exampleAddress: EVM_EXAMPLE });
const LIGHTNING = {
    accountType: 'LIGHTNING',
    family: 'wallet',
    currencies: ['BTC'],
    rule: object({
        accountType: required(oneOf(['LIGHTNING'])),
        invoice: BOLT11_INVOICE,
        bolt12: BOLT12_OFFER,
        lightningAddress: LIGHTNING_ADDRESS,
        platformAccountId: PLATFORM_ACCOUNT_ID,
    }, [exactlyOne([['invoice'], ['bolt12'], ['lightningAddress']])]),
    identity: { invoice: 'lower', bolt12: 'lower', lightningAddress: 'lower' },
    verification: 'UNSUPPORTED',
    // A reusable destination makes a better stored account than a one-time invoice.
    example: { accountType: 'LIGHTNING', lightningAddress: 'jane.doe@lightning.example.com' },
    exampleCurrency: 'BTC',
};
export const WALLET_VARIANTS = [
    evm('BASE_WALLET', ['USDC', 'ETH']),
    evm('ETHEREUM_WALLET', ['USDC', 'USDT', 'ETH']),
    LIGHTNING,
    evm('POLYGON_WALLET', ['USDC', 'POL', 'MATIC']),
    evm('PLASMA_WALLET', ['USDT', 'XPL']),
    evm('ARBITRUM_WALLET', ['USDC', 'USDT', 'ETH']),
    wallet('SOLANA_WALLET', {
        address: SOLANA_ADDRESS,
        addressIdentity: 'exact',
        currencies: ['USDC', 'USDT', 'SOL'],
        exampleAddress: '4Nd1m6Qkq7RfKuE5vQ9qP9Tn6H94Ueqb4xXHzsAbd8Wg',
    }),
    wallet('SPARK_WALLET', {
        address: SPARK_ADDRESS,
        addressIdentity: 'lower',
        currencies: ['BTC', 'USDB', 'USDC', 'USDT'],
        exampleAddress: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
    }),
    wallet('TRON_WALLET', {
        address: TRON_ADDRESS,
        addressIdentity: 'exact',
        currencies: ['USDT', 'TRX'],
        exampleAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
    }),
];
//# sourceMappingURL=wallet-variants.js.map