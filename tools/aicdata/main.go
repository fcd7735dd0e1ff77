package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

var stderr = os.Stderr

var defaultSystems = "a100_sxm,h100_sxm,h200_sxm,b200_sxm,b300_sxm,gb200,l40s,rtx_pro_6000_server"

var nan = math.NaN()

func main() {
	if len(os.Args) >= 3 && os.Args[1] == "schema" {
		for _, p := range os.Args[2:] {
			dumpSchema(p)
		}
		return
	}
	if len(os.Args) >= 3 && os.Args[1] == "derive" {
		derive(os.Args[2:])
		return
	}
	if len(os.Args) >= 3 && os.Args[1] == "moecurve" {
		moeCurveCmd(os.Args[2:])
		return
	}
	if len(os.Args) >= 3 && os.Args[1] == "gemmtable" {
		gemmTableCmd(os.Args[2:])
		return
	}
	if len(os.Args) >= 3 && os.Args[1] == "moestream" {
		moeStreamCmd(os.Args[2:])
		return
	}
	if len(os.Args) >= 3 && os.Args[1] == "moewidth" {
		moeWidthCmd(os.Args[2:])
		return
	}
	if len(os.Args) == 4 && os.Args[1] == "csv" {
		if err := toCSV(os.Args[2], os.Args[3]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) == 4 && os.Args[1] == "distinct" {
		distinct(os.Args[2], strings.Split(os.Args[3], ","))
		return
	}
	fmt.Fprintln(os.Stderr, "usage: aicdata derive [-commit SHA] [-systems a,b] SYSTEMS_DIR | aicdata schema FILE... | aicdata distinct FILE col,col | aicdata csv IN.parquet OUT.csv | aicdata moecurve [-format md|json|go] SYSTEMS_DIR | aicdata gemmtable [-heldout] SYSTEMS_DIR | aicdata moewidth [-format md|json|go] SYSTEMS_DIR | aicdata moestream [-format md|json] SYSTEMS_DIR")
	os.Exit(2)
}

func dumpSchema(p string) {
	t, err := Load(p)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Printf("== %s rows=%d\n", p, len(t.Nums))
	for i, c := range t.Cols {
		seen := map[string]bool{}
		for _, r := range t.Strs {
			seen[r[i]] = true
			if len(seen) > 40 {
				break
			}
		}
		var vals []string
		for v := range seen {
			vals = append(vals, v)
		}
		sort.Strings(vals)
		s := strings.Join(vals, ",")
		if len(s) > 200 {
			s = s[:200] + "…"
		}
		fmt.Printf("  %-28s %d+ distinct: %s\n", c, len(seen), s)
	}
}

// distinct prints each distinct tuple of the named columns with its row count.
func distinct(p string, cols []string) {
	t, err := Load(p)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	count := map[string]int{}
	for r := range t.Strs {
		var parts []string
		for _, c := range cols {
			parts = append(parts, t.Str(r, c))
		}
		count[strings.Join(parts, " ")]++
	}
	var keys []string
	for k := range count {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%s\t%d\n", k, count[k])
	}
}

// derive prints the derived figures for each system as one JSON document.
func derive(args []string) {
	fs := flag.NewFlagSet("derive", flag.ExitOnError)
	commit := fs.String("commit", "", "aiconfigurator commit the data was extracted from (recorded in the output)")
	systems := fs.String("systems", defaultSystems, "comma-separated system names (systems/<name>.yaml)")
	format := fs.String("format", "summary", "summary (compact JSON, committed as derived.json) | full (every derived row, JSON) | md (README tables)")
	fs.Parse(args)
	if fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "derive: need the systems directory (…/aiconfigurator_core/systems)")
		os.Exit(2)
	}
	root := fs.Arg(0)
	type sysOut struct {
		YAML      SystemYAML           `json:"yaml"`
		Versions  map[string]string    `json:"versions"`
		Files     []string             `json:"files"`
		Gemm      any                  `json:"gemm,omitempty"`
		Attention any                  `json:"attention,omitempty"`
		MLA       any                  `json:"mla,omitempty"`
		MoE       any                  `json:"moe,omitempty"`
		NCCL      map[string][]CommRow `json:"nccl_half,omitempty"`
		CustomAR  any                  `json:"vllm_custom_all_reduce_graph_bf16,omitempty"`
	}
	res := map[string]any{
		"source": map[string]string{
			"repo":   "ai-dynamo/aiconfigurator (Apache-2.0)",
			"commit": *commit,
			"path":   "aic-core/src/aiconfigurator_core/systems",
			"engine": "vllm (newest release directory holding the table)",
			"units":  "latency_us in microseconds; frac_* of the systems YAML datasheet figure",
		},
	}
	out := map[string]sysOut{}
	summ := &Summary{Source: res["source"].(map[string]string), Sys: map[string]*SysSumm{},
		Axes: map[string]any{
			"gemm_m": gemmMs, "weight_MiB_buckets": memBuckets[:len(memBuckets)-1], "weight_MiB_last_bucket_from": memBuckets[len(memBuckets)-1][0],
			"prefill_isl": preISL, "moe_tokens": moeTokens,
			"moe_configs": "name_dtype: hidden, inter, topk, experts, tp, ep — qwen3-30b-a3b 2048,768,8,128,1,1; mixtral-8x7b 4096,14336,2,8,1,1; deepseek-v3_ep8 7168,2048,8,256,1,8",
			"attention":   "decode rows [batch, ctx, frac_hbm, latency_us] for 32 q heads, 8 kv heads, d=128, bf16 KV; prefill causal FLOPs = 2·b·h·d·s²",
			"gemm_note":   "fp8 = per-tensor CUTLASS scaled-mm incl. its activation quant; fp8_block omitted (collector times it eagerly: host launch, not kernel time)",
		}}
	for _, name := range strings.Split(*systems, ",") {
		y, err := readYAML(filepath.Join(root, name+".yaml"))
		if err != nil {
			warn(err)
			continue
		}
		so := sysOut{YAML: y, Versions: map[string]string{}}
		var (
			gemm     map[string]GemmDtype
			attn     map[string]*AttnKernel
			moe, mla map[string]any
			car      []CommRow
			nccl     map[string][]CommRow
		)
		data := filepath.Join(root, "data", name)
		rel := func(p string) string { r, _ := filepath.Rel(root, p); return r }
		if p, v := latestFile(filepath.Join(data, "gemm", "vllm"), "gemm_perf.parquet"); p != "" {
			so.Versions["gemm"] = v
			so.Files = append(so.Files, rel(p))
			gemm = deriveGemm(p, y)
			so.Gemm = gemm
		}
		if a, v := deriveAttention(filepath.Join(data, "attention", "vllm"), y); a != nil {
			attn = a
			so.Versions["attention"] = v
			so.Files = append(so.Files, rel(filepath.Join(data, "attention", "vllm", v)))
			so.Attention = a
		}
		if m, v := deriveMLA(filepath.Join(data, "mla", "vllm")); m != nil {
			mla = m
			so.Versions["mla"] = v
			so.Files = append(so.Files, rel(filepath.Join(data, "mla", "vllm", v)))
			so.MLA = m
		}
		if m, v := deriveMoE(filepath.Join(data, "moe", "vllm"), y); m != nil {
			moe = m
			so.Versions["moe"] = v
			so.Files = append(so.Files, rel(filepath.Join(data, "moe", "vllm", v, "moe_perf.parquet")))
			so.MoE = m
		}
		if p, v := latestFile(filepath.Join(data, "comm", "nccl"), "nccl_perf.parquet"); p != "" {
			so.Versions["nccl"] = v
			so.Files = append(so.Files, rel(p))
			nccl = map[string][]CommRow{}
			for _, op := range ncclOps {
				if rows := deriveComm(p, op, "nccl_dtype", "half", "", y); len(rows) > 0 {
					nccl[op] = rows
				}
			}
			so.NCCL = nccl
		}
		if p, v := latestFile(filepath.Join(data, "comm", "vllm"), "custom_allreduce_perf.parquet"); p != "" {
			so.Versions["custom_all_reduce"] = v
			so.Files = append(so.Files, rel(p))
			car = deriveComm(p, "all_reduce", "allreduce_dtype", "bfloat16", "vLLM_custom_graph", y)
			so.CustomAR = car
		}
		out[name] = so
		summ.Sys[name] = summarize(y, so.Versions, gemm, attn, moe, mla, nccl, car)
	}
	res["systems"] = out
	var doc any = summ
	enc := json.NewEncoder(os.Stdout)
	switch *format {
	case "md":
		writeMarkdown(os.Stdout, summ)
		return
	case "full":
		doc = res
		enc.SetIndent("", " ")
	case "summary":
	default:
		fmt.Fprintln(os.Stderr, "derive: unknown -format", *format)
		os.Exit(2)
	}
	if err := enc.Encode(doc); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
