// Package resolve turns a validated spec into one Deployment value: the
// model (catalog entry or config.json), the GPU (catalog or custom, with its
// intra-node link), the vLLM release and its defaults, the layout (or "auto"
// pending the search), the network, and every effective engine setting with
// where it came from (spec, env override, release default, auto and why,
// derived).
//
// Every other stage reads this value instead of working out what the spec
// means on its own: validate builds it, estimate, generator, preflight and
// lint --spec take it, so `vlaunch check` costs what `vlaunch generate`
// writes. It also holds the one rule for where a layout's engines sit on the
// nodes (Place), which the generator and the layout search share.
//
// The package is low in the import graph (spec, catalog, vllm, diag only),
// pure, and never prints.
package resolve
