#!/usr/bin/env node
// The `tradelab` executable (package.json `bin`: dist/cli.js). The program and its commands are in src/cli/.
import { runProgram } from './cli/program.js';

runProgram();
