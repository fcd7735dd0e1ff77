// Package bench reads serving-benchmark results as the common clients save
// them and maps each to the workload it measured, so that vlaunch can
// predict the same run and compare.
//
// Formats (field names as each client writes them; see the per-format
// files for the source read):
//
//   - `vllm bench serve --save-result` (vllm/benchmarks/serve.py), one JSON
//     object per file, or one per line with --append-result, or a list of
//     them (`vllm bench sweep serve`'s summary.json);
//   - the older `benchmarks/benchmark_serving.py --save-result`, whose keys
//     changed across releases (request_inthroughput, "request_goodput:");
//   - SGLang `python -m sglang.bench_serving --output-file` JSONL, one
//     object per run, appended;
//   - GuideLLM reports (`guidellm benchmark --output-path x.json`), one
//     object holding a list of benchmarks;
//   - NVIDIA AIPerf's profile_export_aiperf.json and GenAI-Perf's
//     profile_export_genai_perf.json, one object of metric summaries;
//   - kubernetes-sigs/inference-perf's summary_lifecycle_metrics.json and
//     stage_N_lifecycle_metrics.json (the reports llm-d publishes);
//   - ray-project/llmperf's {model}_{in}_{out}_summary.json.
//
// Parsing is strict where it matters and bounded: a known key with the
// wrong type, a non-finite number, a misspelt statistic (mean_ttf_ms) or a
// result that contradicts itself is an error naming the record and key;
// keys a client adds from the user (vLLM's --metadata KEY=VALUE) are kept
// as metadata. Inputs are capped in size and record count.
package bench
