// Writes ../static/plotly-ikviz.licences.txt: each package the bundle holds, its version and licence,
// then the licence texts (read from esbuild's metafile, so the list is exactly what was bundled).
const fs = require('fs');
const path = require('path');

const meta = JSON.parse(fs.readFileSync('meta.json', 'utf8'));
const inputs = Object.keys(meta.outputs['../static/plotly-ikviz.min.js'].inputs);
const roots = new Set();
for (const file of inputs) {
    const match = file.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//);
    if (match) roots.add(match[1]);
}
const lines = ['The packages in plotly-ikviz.min.js (built by app/plotly-bundle, see its README):', ''];
const texts = [];
for (const root of [...roots].sort()) {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    lines.push(`${pkg.name}@${pkg.version}: ${pkg.license || 'see its licence text below'}`);
    const licence = fs.readdirSync(root).find((f) => /^licen[cs]e/i.test(f));
    if (licence) texts.push(`---- ${pkg.name}@${pkg.version}\n\n${fs.readFileSync(path.join(root, licence), 'utf8').trim()}`);
}
fs.writeFileSync('../static/plotly-ikviz.licences.txt', [...lines, '', ...texts, ''].join('\n'));
