#!/usr/bin/env node
// Committed entry point, so pnpm can link the command before dist/ is built.
import '../dist/main.js';
