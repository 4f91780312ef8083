// Builds src/gputeam/report/static/plotly-gputeam.min.js: plotly.js's core (scatter) with
// only the trace types the reports draw (bar, heatmap, histogram), CSS inlined, minified.
//   cd tools/plotly && npm ci && node build.js
const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');
const InlineCSSPlugin = require('esbuild-plugin-inline-css');
const { environmentPlugin } = require('esbuild-plugin-environment');

const version = require('plotly.js/package.json').version;
const out = path.join(__dirname, '..', '..', 'src', 'gputeam', 'report', 'static', 'plotly-gputeam.min.js');
esbuild
  .build({
    entryPoints: [path.join(__dirname, 'entry.js')],
    format: 'iife',
    globalName: 'Plotly',
    bundle: true,
    minify: true,
    plugins: [InlineCSSPlugin(), environmentPlugin({ NODE_DEBUG: false })],
    alias: { stream: 'stream-browserify' },
    define: { global: 'window', 'define.amd': 'false' },
    target: 'es2016',
    legalComments: 'eof',
    write: false,
  })
  .then((result) => {
    const header =
      `/**\n* plotly.js v${version} (partial bundle: scatter, bar, heatmap, histogram)\n` +
      '* Copyright 2012-2026, Plotly, Inc.\n* All rights reserved.\n* Licensed under the MIT license\n*/\n';
    fs.writeFileSync(out, header + result.outputFiles[0].text);
    console.log(`wrote ${out}`);
  });
