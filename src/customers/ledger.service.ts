// The ledger lives in src/ledger/; this path stays for the modules that imported it from here.
export * from '../ledger/ledger.service.js';
