#!/usr/bin/env node
// ctest vectors_schema: every committed vector file (corpus/vectors/<operation>.json)
// validates against corpus/vectors/vectors.schema.json with Ajv (JSON Schema 2020-12;
// ./scripts/deps installs it into out/ci-tools), its numberOfTests counts its tests, its
// tcIds run 1..n, and every flag a test uses has its note.  Then the same checks on a
// planted bad file, which must fail.
//   node fuzz/vectors_schema_test.cjs SOURCE_DIR
// Exit 0 all valid; 1 a file is not (each problem one line naming file and path);
// 77 Ajv is not installed (skipped); 2 usage.
'use strict';
const fs = require('fs');
const path = require('path');

const src = process.argv[2];
if (!src) { console.error('usage: vectors_schema_test.cjs SOURCE_DIR'); process.exit(2); }
let Ajv2020;
try {
  Ajv2020 = require(path.resolve(src, 'out/ci-tools/node_modules/ajv/dist/2020')).default;
} catch (e) {
  console.log('vectors_schema: Ajv is not installed (./scripts/deps installs it): skipped');
  process.exit(77);
}
const dir = path.join(src, 'corpus/vectors');
const schema = JSON.parse(fs.readFileSync(path.join(dir, 'vectors.schema.json'), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

function problems(name, doc) {
  const out = [];
  if (!validate(doc)) {
    for (const e of validate.errors) {
      const line = `${name}: ${e.instancePath || '/'} ${e.message}`;
      if (!out.includes(line)) out.push(line);
    }
    return out;
  }
  if (doc.numberOfTests !== doc.tests.length) out.push(`${name}: numberOfTests ${doc.numberOfTests}, ${doc.tests.length} tests`);
  doc.tests.forEach((t, i) => {
    if (t.tcId !== i + 1) out.push(`${name}: /tests/${i}/tcId is ${t.tcId}, not ${i + 1}`);
    for (const f of t.flags) if (!(f in doc.notes)) out.push(`${name}: /tests/${i}/flags: ${f} has no note`);
  });
  return out;
}

const files = fs.readdirSync(dir).filter((n) => n.endsWith('.json') && n !== 'vectors.schema.json').sort();
const found = [];
for (const n of files) found.push(...problems(`corpus/vectors/${n}`, JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8'))));
if (files.length !== 5) found.push(`corpus/vectors: ${files.length} vector files, not one per operation (5)`);

// The check has teeth: a planted file with a bad status and a missing input key must
// fail on each, and one with an unnoted flag (seen once the schema passes) too.
const planted = JSON.parse(fs.readFileSync(path.join(dir, 'search.json'), 'utf8'));
planted.tests[0].expected.status = 'MAYBE';
delete planted.tests[1].input.step;
const caught = problems('planted', planted);
for (const want of ['/tests/0/expected/status', '/tests/1/input']) {
  if (!caught.some((p) => p.includes(want))) found.push(`the planted file's ${want} was not caught: ${caught.join('; ')}`);
}
const unnoted = JSON.parse(fs.readFileSync(path.join(dir, 'search.json'), 'utf8'));
unnoted.tests[2].flags.push('NoSuchFact');
if (!problems('planted', unnoted).some((p) => p.includes('NoSuchFact has no note'))) found.push('an unnoted flag was not caught');

for (const p of found) console.log(p);
if (found.length) process.exit(1);
console.log(`vectors_schema: ${files.length} vector files valid against vectors.schema.json; the planted breaks caught`);
