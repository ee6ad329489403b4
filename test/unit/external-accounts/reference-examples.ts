/**
 * Examples copied verbatim from the reference documents (see /work/shared/reference):
 * request bodies of POST .../external-accounts, the `example` of every `*AccountInfoBase` schema
 * (older document, the newer excerpt, and a few only the newer full document has), and wallet
 * address / Lightning examples. Regenerate by re-extracting; do not edit values by hand.
 */

export interface CreateExample {
  name: string;
  currency: string;
  accountInfo: Record<string, unknown>;
}

export interface PartExample {
  name: string;
  accountInfo: Record<string, unknown>;
}

/** Whole create bodies (accountInfo + currency). */
export const REFERENCE_CREATE_EXAMPLES: CreateExample[] = [
  {
    name: 'older POST /platform/external-accounts usBankAccount',
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '12345678901',
      routingNumber: '123456789',
      bankAccountType: 'CHECKING',
      bankName: 'Chase Bank',
      platformAccountId: 'ext_acc_123456',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'John Doe',
        birthDate: '1990-01-15',
        nationality: 'US',
        address: { line1: '123 Main Street', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
      },
    },
  },
  {
    name: 'older POST /platform/external-accounts sparkWallet',
    currency: 'BTC',
    accountInfo: {
      accountType: 'SPARK_WALLET',
      address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
    },
  },
  {
    name: 'older POST /customers/external-accounts usBankAccount',
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '12345678901',
      routingNumber: '123456789',
      bankAccountType: 'CHECKING',
      bankName: 'Chase Bank',
      platformAccountId: 'ext_acc_123456',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'John Doe',
        birthDate: '1990-01-15',
        nationality: 'US',
        address: { line1: '123 Main Street', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
      },
    },
  },
  {
    name: 'older POST /customers/external-accounts sparkWallet',
    currency: 'BTC',
    accountInfo: {
      accountType: 'SPARK_WALLET',
      address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
    },
  },
  {
    name: 'older POST /agents/me/external-accounts usBankAccount',
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '12345678901',
      routingNumber: '123456789',
      bankAccountType: 'CHECKING',
      bankName: 'Chase Bank',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'John Doe',
        birthDate: '1990-01-15',
        nationality: 'US',
        address: { line1: '123 Main Street', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
      },
    },
  },
  {
    name: 'older POST /agents/me/external-accounts sparkWallet',
    currency: 'BTC',
    accountInfo: {
      accountType: 'SPARK_WALLET',
      address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
    },
  },
  {
    name: 'newer POST /platform/external-accounts usBankAccount',
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '12345678901',
      routingNumber: '123456789',
      bankAccountType: 'CHECKING',
      bankName: 'Chase Bank',
      platformAccountId: 'ext_acc_123456',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'John Doe',
        birthDate: '1990-01-15',
        nationality: 'US',
        address: { line1: '123 Main Street', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
      },
    },
  },
  {
    name: 'newer POST /platform/external-accounts sparkWallet',
    currency: 'BTC',
    accountInfo: {
      accountType: 'SPARK_WALLET',
      address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
    },
  },
  {
    name: 'newer POST /customers/external-accounts usBankAccount',
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '12345678901',
      routingNumber: '123456789',
      bankAccountType: 'CHECKING',
      bankName: 'Chase Bank',
      platformAccountId: 'ext_acc_123456',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'John Doe',
        birthDate: '1990-01-15',
        nationality: 'US',
        address: { line1: '123 Main Street', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
      },
    },
  },
  {
    name: 'newer POST /customers/external-accounts sparkWallet',
    currency: 'BTC',
    accountInfo: {
      accountType: 'SPARK_WALLET',
      address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
    },
  },
];

/** `*AccountInfoBase` examples: the account part only (no beneficiary). */
export const REFERENCE_ACCOUNT_PART_EXAMPLES: PartExample[] = [
  {
    name: 'older UsdAccountInfoBase.example',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '1234567890',
      routingNumber: '021000021',
      bankName: 'Chase Bank',
      bankAccountType: 'CHECKING',
    },
  },
  {
    name: 'older MxnAccountInfoBase.example',
    accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: '123456789012345678' },
  },
  {
    name: 'older DkkAccountInfoBase.example',
    accountInfo: { accountType: 'DKK_ACCOUNT', iban: 'DK5000400040116243', swiftCode: 'DABADKKK' },
  },
  {
    name: 'older EurAccountInfoBase.example',
    accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', swiftCode: 'DEUTDEFF' },
  },
  {
    name: 'older InrAccountInfoBase.example',
    accountInfo: {
      accountType: 'INR_ACCOUNT',
      vpa: 'user@upi',
      accountNumber: '000111222333',
      ifsc: 'HDFC0001234',
      rail: 'NEFT',
      bankName: 'Example Bank',
    },
  },
  {
    name: 'older NgnAccountInfoBase.example',
    accountInfo: { accountType: 'NGN_ACCOUNT', accountNumber: '0123456789', bankName: 'Example Bank' },
  },
  {
    name: 'older GbpAccountInfoBase.example',
    accountInfo: { accountType: 'GBP_ACCOUNT', sortCode: '123456', accountNumber: '12345678' },
  },
  {
    name: 'older HkdAccountInfoBase.example',
    accountInfo: {
      accountType: 'HKD_ACCOUNT',
      bankName: 'Example Bank',
      accountNumber: '123456789012',
      swiftCode: 'HSBCHKHHHKH',
    },
  },
  {
    name: 'older IdrAccountInfoBase.example',
    accountInfo: {
      accountType: 'IDR_ACCOUNT',
      bankName: 'Bank Central Asia',
      accountNumber: '1234567890',
      swiftCode: 'CENAIDJA',
      phoneNumber: '+6281234567890',
    },
  },
  {
    name: 'older MyrAccountInfoBase.example',
    accountInfo: {
      accountType: 'MYR_ACCOUNT',
      bankName: 'Example Bank',
      accountNumber: '1234567890',
      swiftCode: 'MABORUMMYYY',
    },
  },
  {
    name: 'older PhpAccountInfoBase.example',
    accountInfo: { accountType: 'PHP_ACCOUNT', bankName: 'BDO Unibank', accountNumber: '001234567890' },
  },
  {
    name: 'older SgdAccountInfoBase.example',
    accountInfo: {
      accountType: 'SGD_ACCOUNT',
      bankName: 'DBS Bank Ltd',
      accountNumber: '0123456789',
      swiftCode: 'DBSSSGSG',
    },
  },
  {
    name: 'older ThbAccountInfoBase.example',
    accountInfo: {
      accountType: 'THB_ACCOUNT',
      bankName: 'Example Bank',
      accountNumber: '1234567890',
      swiftCode: 'BKKBTHBK',
    },
  },
  {
    name: 'older VndAccountInfoBase.example',
    accountInfo: {
      accountType: 'VND_ACCOUNT',
      bankName: 'Example Bank',
      accountNumber: '1234567890',
      swiftCode: 'BFTVVNVX',
    },
  },
  {
    name: 'older AedAccountInfoBase.example',
    accountInfo: { accountType: 'AED_ACCOUNT', iban: 'AE070331234567890123456', swiftCode: 'EBILAEAD' },
  },
  {
    name: 'older KesAccountInfoBase.example',
    accountInfo: { accountType: 'KES_ACCOUNT', phoneNumber: '+254712345678', provider: 'Example Provider' },
  },
  {
    name: 'older MwkAccountInfoBase.example',
    accountInfo: { accountType: 'MWK_ACCOUNT', phoneNumber: '+1234567890', provider: 'Example Provider' },
  },
  {
    name: 'older RwfAccountInfoBase.example',
    accountInfo: { accountType: 'RWF_ACCOUNT', phoneNumber: '+250781234567', provider: 'Example Provider' },
  },
  {
    name: 'older TzsAccountInfoBase.example',
    accountInfo: { accountType: 'TZS_ACCOUNT', phoneNumber: '+255712345678', provider: 'Example Provider' },
  },
  {
    name: 'older UgxAccountInfoBase.example',
    accountInfo: { accountType: 'UGX_ACCOUNT', phoneNumber: '+1234567890', provider: 'Example Provider' },
  },
  {
    name: 'older XofAccountInfoBase.example',
    accountInfo: { accountType: 'XOF_ACCOUNT', phoneNumber: '+1234567890', provider: 'Example Provider', region: 'BJ' },
  },
  {
    name: 'older ZarAccountInfoBase.example',
    accountInfo: { accountType: 'ZAR_ACCOUNT', accountNumber: '1234567890', bankName: 'Example Bank' },
  },
  {
    name: 'older ZmwAccountInfoBase.example',
    accountInfo: { accountType: 'ZMW_ACCOUNT', phoneNumber: '+260971234567', provider: 'Example Provider' },
  },
  {
    name: 'older BwpAccountInfoBase.example',
    accountInfo: { accountType: 'BWP_ACCOUNT', phoneNumber: '+1234567890', provider: 'Example Provider' },
  },
  {
    name: 'older XafAccountInfoBase.example',
    accountInfo: { accountType: 'XAF_ACCOUNT', phoneNumber: '+1234567890', provider: 'Example Provider', region: 'CM' },
  },
  {
    name: 'older BdtAccountInfoBase.example',
    accountInfo: {
      accountType: 'BDT_ACCOUNT',
      accountNumber: '1234567890',
      bankName: 'Example Bank',
      branchCode: '11111',
      swiftCode: 'DEUTDEFF',
      phoneNumber: '+1234567890',
    },
  },
  {
    name: 'older EgpAccountInfoBase.example',
    accountInfo: {
      accountType: 'EGP_ACCOUNT',
      iban: 'EG380019000500000000263180002',
      bankName: 'Example Bank',
      phoneNumber: '+1234567890',
    },
  },
  {
    name: 'older GhsAccountInfoBase.example',
    accountInfo: {
      accountType: 'GHS_ACCOUNT',
      accountNumber: '1234567890',
      bankName: 'Example Bank',
      phoneNumber: '+1234567890',
    },
  },
  {
    name: 'older GtqAccountInfoBase.example',
    accountInfo: {
      accountType: 'GTQ_ACCOUNT',
      accountNumber: '1234567890',
      bankAccountType: 'CHECKING',
      bankName: 'Example Bank',
    },
  },
  { name: 'older HtgAccountInfoBase.example', accountInfo: { accountType: 'HTG_ACCOUNT', phoneNumber: '+1234567890' } },
  {
    name: 'older JmdAccountInfoBase.example',
    accountInfo: {
      accountType: 'JMD_ACCOUNT',
      accountNumber: '1234567890',
      branchCode: '11111',
      bankAccountType: 'CHECKING',
      bankName: 'Example Bank',
    },
  },
  {
    name: 'older PkrAccountInfoBase.example',
    accountInfo: {
      accountType: 'PKR_ACCOUNT',
      bankName: 'Example Bank',
      accountNumber: '1234567890',
      iban: 'PK36SCBL0000001123456702',
      phoneNumber: '+1234567890',
    },
  },
  {
    name: 'older SlvAccountInfoBase.example',
    accountInfo: {
      accountType: 'SLV_ACCOUNT',
      bankName: 'Banco Cuscatlan',
      accountNumber: '0123456789',
      bankAccountType: 'CHECKING',
    },
  },
  {
    name: 'older SwiftAccountInfoBase.example',
    accountInfo: {
      accountType: 'SWIFT_ACCOUNT',
      country: 'NG',
      swiftCode: 'DEUTDEFF',
      bankName: 'Deutsche Bank',
      accountNumber: '1234567890',
    },
  },
  {
    name: 'older CnyAccountInfoBase.example',
    accountInfo: {
      accountType: 'CNY_ACCOUNT',
      accountNumber: '1234567890',
      bankName: 'Example Bank',
      phoneNumber: '+1234567890',
    },
  },
  {
    name: 'older BrlAccountInfoBase.example',
    accountInfo: { accountType: 'BRL_ACCOUNT', pixKey: 'user@example.com', pixKeyType: 'CPF', taxId: '11111111111' },
  },
  {
    name: 'older CopAccountInfoBase.example',
    accountInfo: {
      accountType: 'COP_ACCOUNT',
      accountNumber: '1234567890',
      bankAccountType: 'CHECKING',
      bankName: 'Example Bank',
      phoneNumber: '+1234567890',
    },
  },
  {
    name: 'newer UsdAccountInfoBase.example',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '1234567890',
      routingNumber: '021000021',
      bankName: 'Chase Bank',
      intermediaryBankName: 'JPMorgan Chase Bank',
      intermediaryRoutingNumber: '021000021',
      fiToFiInformation: '/BNF/Invoice 4471',
      bankAccountType: 'CHECKING',
    },
  },
  {
    name: 'newer IlsAccountInfoBase.example',
    accountInfo: { accountType: 'ILS_ACCOUNT', iban: 'IL620108000000099999999', bankName: 'Bank Leumi Le-Israel B.M' },
  },
  {
    name: 'newer TryAccountInfoBase.example',
    accountInfo: {
      accountType: 'TRY_ACCOUNT',
      iban: 'TR330006100519786457841326',
      bankName: '<bankName from GET /discoveries>',
    },
  },
  {
    name: 'newer PhpAccountInfoBase.example',
    accountInfo: {
      accountType: 'PHP_ACCOUNT',
      rail: 'INSTAPAY',
      bankName: 'Bank of the Philippine Islands (BPI)',
      accountNumber: '001234567890',
    },
  },
  {
    name: 'newer InrAccountInfoBase.example',
    accountInfo: {
      accountType: 'INR_ACCOUNT',
      vpa: 'user@upi',
      accountNumber: '000111222333',
      ifsc: 'HDFC0001234',
      rail: 'NEFT',
    },
  },
  {
    name: 'newer BdtAccountInfoBase.example',
    accountInfo: {
      accountType: 'BDT_ACCOUNT',
      accountNumber: '1234567890',
      bankName: 'BRAC Bank',
      branchCode: '11111',
      swiftCode: 'DEUTDEFF',
      phoneNumber: '+1234567890',
    },
  },
  {
    name: 'newer CopAccountInfoBase.example',
    accountInfo: {
      accountType: 'COP_ACCOUNT',
      accountNumber: '1234567890',
      bankAccountType: 'CHECKING',
      bankName: 'Banco de Colombia (Bancolombia)',
      phoneNumber: '+1234567890',
    },
  },
  {
    name: 'newer UsdAccountInfoBase.example',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '1234567890',
      routingNumber: '021000021',
      bankName: 'Chase Bank',
      intermediaryBankName: 'JPMorgan Chase Bank',
      intermediaryRoutingNumber: '021000021',
      fiToFiInformation: '/BNF/Invoice 4471',
      bankAccountType: 'CHECKING',
    },
  },
];

/** Wallet and Lightning examples: complete create accountInfo values. */
export const REFERENCE_WALLET_EXAMPLES: PartExample[] = [
  {
    name: 'older SparkWalletInfo address example',
    accountInfo: {
      accountType: 'SPARK_WALLET',
      address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
    },
  },
  {
    name: 'older SolanaWalletInfo address example',
    accountInfo: { accountType: 'SOLANA_WALLET', address: '4Nd1m6Qkq7RfKuE5vQ9qP9Tn6H94Ueqb4xXHzsAbd8Wg' },
  },
  {
    name: 'older TronWalletInfo address example',
    accountInfo: { accountType: 'TRON_WALLET', address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL' },
  },
  {
    name: 'older PlasmaWalletInfo address example',
    accountInfo: { accountType: 'PLASMA_WALLET', address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12' },
  },
  {
    name: 'older PolygonWalletInfo address example',
    accountInfo: { accountType: 'POLYGON_WALLET', address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12' },
  },
  {
    name: 'older BaseWalletInfo address example',
    accountInfo: { accountType: 'BASE_WALLET', address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12' },
  },
  {
    name: 'older EthereumWalletInfo address example',
    accountInfo: { accountType: 'ETHEREUM_WALLET', address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12' },
  },
  {
    name: 'newer ArbitrumWalletInfo address example',
    accountInfo: { accountType: 'ARBITRUM_WALLET', address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12' },
  },
  {
    name: 'older LightningInfo.invoice example',
    accountInfo: {
      accountType: 'LIGHTNING',
      invoice:
        'lnbc15u1p3xnhl2pp5jptserfk3zk4qy42tlucycrfwxhydvlemu9pqr93tuzlv9cc7g3sdqsvfhkcap3xyhx7un8cqzpgxqzjcsp5f8c52y2stc300gl6s4xswtjpc37hrnnr3c9wvtgjfuvqmpm35evq9qyyssqy4lgd8tj637qcjp05rdpxxykjenthxftej7a2zzmwrmrl70fyj9hvj0rewhzj7jfyuwkwcg9g2jpwtk3wkjtwnkdks84hsnu8xps5vsq4gj5hs',
    },
  },
  {
    name: 'older LightningInfo.bolt12 example',
    accountInfo: {
      accountType: 'LIGHTNING',
      bolt12:
        'lnbc15u1p3xnhl2pp5jptserfk3zk4qy42tlucycrfwxhydvlemu9pqr93tuzlv9cc7g3sdqsvfhkcap3xyhx7un8cqzpgxqzjcsp5f8c52y2stc300gl6s4xswtjpc37hrnnr3c9wvtgjfuvqmpm35evq9qyyssqy4lgd8tj637qcjp05rdpxxykjenthxftej7a2zzmwrmrl70fyj9hvj0rewhzj7jfyuwkwcg9g2jpwtk3wkjtwnkdks84hsnu8xps5vsq4gj5hs',
    },
  },
  {
    name: 'older LightningInfo.lightningAddress example',
    accountInfo: { accountType: 'LIGHTNING', lightningAddress: 'john.doe@lightningwallet.com' },
  },
  {
    name: 'older WalletIndividualBeneficiary example on an Ethereum wallet',
    accountInfo: {
      accountType: 'ETHEREUM_WALLET',
      address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'John Michael Doe', countryOfResidence: 'US' },
      vaspName: 'Kraken',
    },
  },
  {
    name: 'older webhook external-account-status verificationSucceeded',
    accountInfo: { accountType: 'ETHEREUM_WALLET', address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12' },
  },
  {
    name: 'older webhook external-account-status verificationFailed',
    accountInfo: { accountType: 'ETHEREUM_WALLET', address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12' },
  },
];
