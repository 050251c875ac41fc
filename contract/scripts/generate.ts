// Writes the generated sources of the contract (npm run generate -w contract).
import fs from 'node:fs';
import { GENERATED_VALIDATOR, validatorSource } from '../src/compose-schema/generate';

fs.writeFileSync(GENERATED_VALIDATOR, validatorSource());
console.log(`wrote ${GENERATED_VALIDATOR.pathname}`);
