package main

// gemmtable: a compact GEMM latency table per system and dtype, for the
// step model's per-shape GEMM pricing (estimate/perf/gemmtable.go embeds
// the output as gemm_tables.json).
//
// Selection: for each system, the newest vLLM release directory holding
// gemm/vllm/<v>/gemm_perf.parquet (latestFile); the dtypes bfloat16
// (torch.nn.functional.linear), fp8 (per-tensor CutlassFP8ScaledMM, its
// activation quantization included), fp8_block (the block-scaled kernel
// vLLM picked: DeepGEMM, CUTLASS or FlashInfer) and nvfp4 (W4A4 NVFP4,
// group 16: the kernel vLLM 0.24.0's init_nvfp4_linear_kernel picked,
// FlashInferCuteDslNvFp4LinearKernel on b200_sxm, b300_sxm and gb200,
// FlashInferCutlassNvFp4LinearKernel on rtx_pro_6000_server, its dynamic
// activation quantization to NVFP4 included; collect_gemm.py builds it as
// a compressed-tensors nvfp4-pack-quantized RowParallelLinear).
//
// Compaction: the latency (µs, 3 significant digits) at every grid point
// M ∈ gemmGridM (powers of four, 1 … 16,384) × N, K ∈ gemmGridNK (powers
// of two 64 … 16,384, then 65,536): rows whose (m, n, k) lie on the grid,
// nothing interpolated. The rows left out (M = 2, 8, 32 …, odd M such as
// 129, and N, K = 32, 768, 1536, 2560 …) are the held-out rows the lookup's
// accuracy is checked on (-heldout).
//
// fp8_block is timed eagerly with one weight copy (collect_gemm.py:
// use_cuda_graph=gemm_type != "fp8_block"): each row is the larger of the
// host's launch time and the GPU's, an upper bound on the GPU time. On
// H200, DeepGEMM's N = 4096, K = 512 (DeepSeek's kv_b at TP8) reads
// 83–101 µs at every M from 64 to 16,384 — launch, not GEMM. So a
// fp8_block cell is the smaller of its row and the per-tensor fp8 time of
// the same N, K at that M (CUDA-graph GPU time of the nearest kernel),
// taken as the smallest fp8 row at any M' ≥ M: Blackwell's per-tensor
// CUTLASS path is slower at M = 1 than at M = 2 (B200: 335 of 483 shapes
// over 1.5×, 22 µs against 5.9 µs at N = 4096, K = 512), a dispatch of
// that kernel the block kernels do not share. host_bound counts the cells
// where the fp8 figure is the smaller. The bfloat16, fp8 and nvfp4 cells
// are their rows as measured.
//
// nvfp4 is timed in a CUDA graph (collect_gemm.py: use_cuda_graph is
// false for fp8_block only) but with one weight copy
// (outside_loop_count = 1 for fp8_block and nvfp4; 6 for bfloat16 and
// fp8): a weight that fits in L2 may be read from it on the replays after
// the first. On B200 no nvfp4 row reads its weights (0.5625 B a weight)
// faster than 4.6 TB/s, below the HBM's 7.7, and its floor is 6.1 µs
// (two kernels: the activation quantization and the GEMM) against
// bfloat16's 1.8 µs.

// A grid point the table lacks is -1 (the lookup leaves that corner out
// and renormalises the other corners' weights).

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

// gemmGridM and gemmGridNK are the table's axes.
var (
	gemmGridM  = []float64{1, 4, 16, 64, 256, 1024, 4096, 16384}
	gemmGridNK = []float64{64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 65536}
)

// GemmTable is one system's compact tables.
type GemmTable struct {
	Version string `json:"vllm"`
	// Lat[dtype][i][j][k] is the latency in µs at M = M[i], N = NK[j],
	// K = NK[k] (-1: no row).
	Lat map[string][][][]float64 `json:"lat_us"`
	// HostBound counts the fp8_block cells that hold the fp8 row (the
	// smaller of the two).
	HostBound int `json:"host_bound,omitempty"`
	// BlockFloorUs is the fp8_block table's smallest latency.
	BlockFloorUs float64 `json:"fp8_block_floor_us,omitempty"`
}

// GemmTables is the command's output.
type GemmTables struct {
	Source  map[string]string     `json:"source"`
	M       []float64             `json:"m"`
	NK      []float64             `json:"nk"`
	Systems map[string]*GemmTable `json:"systems"`
}

// gemmKey is a shape.
type gemmKey struct{ m, n, k float64 }

// readGemmRows returns latency in µs by dtype and shape (the first row
// of a repeated shape).
func readGemmRows(t *Table) map[string]map[gemmKey]float64 {
	out := map[string]map[gemmKey]float64{}
	for i := range t.Nums {
		dt := t.Str(i, "gemm_dtype")
		lat := t.Num(i, "latency") * 1e3
		if math.IsNaN(lat) || lat <= 0 {
			continue
		}
		if out[dt] == nil {
			out[dt] = map[gemmKey]float64{}
		}
		k := gemmKey{t.Num(i, "m"), t.Num(i, "n"), t.Num(i, "k")}
		if _, ok := out[dt][k]; !ok {
			out[dt][k] = lat
		}
	}
	return out
}

// compactGemm builds one system's table from its rows.
func compactGemm(rows map[string]map[gemmKey]float64) *GemmTable {
	g := &GemmTable{Lat: map[string][][][]float64{}}
	grid := func(src map[gemmKey]float64, fill func(gemmKey, float64) float64) [][][]float64 {
		c := make([][][]float64, len(gemmGridM))
		for i, m := range gemmGridM {
			c[i] = make([][]float64, len(gemmGridNK))
			for j, n := range gemmGridNK {
				c[i][j] = make([]float64, len(gemmGridNK))
				for l, k := range gemmGridNK {
					key := gemmKey{m, n, k}
					v, ok := src[key]
					if !ok {
						c[i][j][l] = -1
						continue
					}
					c[i][j][l] = r(fill(key, v), 3)
				}
			}
		}
		return c
	}
	keep := func(_ gemmKey, v float64) float64 { return v }
	for _, dt := range []string{"bfloat16", "fp8", "nvfp4"} {
		if src := rows[dt]; len(src) > 0 {
			g.Lat[dt] = grid(src, keep)
		}
	}
	if src := rows["fp8_block"]; len(src) > 0 {
		floor := math.Inf(1)
		for _, v := range src {
			floor = min(floor, v)
		}
		g.BlockFloorUs = r(floor, 3)
		env := monotoneInM(rows["fp8"])
		g.Lat["fp8_block"] = grid(src, func(key gemmKey, v float64) float64 {
			if f, ok := env[key]; ok && f < v {
				g.HostBound++
				return f
			}
			return v
		})
	}
	return g
}

// monotoneInM maps each shape to the smallest latency of the rows with the
// same N, K and at least its M.
func monotoneInM(rows map[gemmKey]float64) map[gemmKey]float64 {
	type nk struct{ n, k float64 }
	byNK := map[nk][]gemmKey{}
	for key := range rows {
		byNK[nk{key.n, key.k}] = append(byNK[nk{key.n, key.k}], key)
	}
	out := make(map[gemmKey]float64, len(rows))
	for _, keys := range byNK {
		sort.Slice(keys, func(i, j int) bool { return keys[i].m > keys[j].m })
		best := math.Inf(1)
		for _, key := range keys {
			best = min(best, rows[key])
			out[key] = best
		}
	}
	return out
}

// gemmTableCmd prints the tables (JSON) of every system; -heldout prints
// instead, per system and dtype, the error of a log-log interpolation of
// the grid at every off-grid row inside it.
func gemmTableCmd(args []string) {
	fs := flag.NewFlagSet("gemmtable", flag.ExitOnError)
	commit := fs.String("commit", "", "aiconfigurator commit the data was extracted from (recorded in the output)")
	systems := fs.String("systems", defaultSystems, "comma-separated system names")
	heldout := fs.Bool("heldout", false, "print the interpolation error on the rows left off the grid")
	fs.Parse(args)
	if fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "gemmtable: need the systems directory (…/aiconfigurator_core/systems)")
		os.Exit(2)
	}
	root := fs.Arg(0)
	out := GemmTables{
		Source: map[string]string{
			"repo":   "ai-dynamo/aiconfigurator (Apache-2.0)",
			"commit": *commit,
			"path":   "aic-core/src/aiconfigurator_core/systems/data/<system>/gemm/vllm/<newest>/gemm_perf.parquet",
			"rule":   "latency µs on the grid m × nk × nk (rows on the grid only); fp8_block cells (eager: host launch bounds them) are min(fp8_block row, smallest fp8 row at the same N, K and M or more); bfloat16, fp8 and nvfp4 cells as measured (CUDA graph; nvfp4 with one weight copy)",
		},
		M: gemmGridM, NK: gemmGridNK, Systems: map[string]*GemmTable{},
	}
	for _, name := range strings.Split(*systems, ",") {
		p, v := latestFile(filepath.Join(root, "data", name, "gemm", "vllm"), "gemm_perf.parquet")
		if p == "" {
			continue
		}
		t, err := Load(p)
		if err != nil {
			warn(err)
			continue
		}
		rows := readGemmRows(t)
		g := compactGemm(rows)
		g.Version = v
		out.Systems[name] = g
		if *heldout {
			printHeldout(name, g, rows)
		}
	}
	if *heldout {
		return
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// printHeldout prints |interpolated/measured − 1| (median, p90) over the
// rows inside the grid's span but not on it, by dtype (fp8_block: against
// the smaller of its row and fp8's, the cells' rule).
func printHeldout(sys string, g *GemmTable, rows map[string]map[gemmKey]float64) {
	env := monotoneInM(rows["fp8"])
	for _, dt := range []string{"bfloat16", "fp8", "fp8_block", "nvfp4"} {
		c := g.Lat[dt]
		if c == nil {
			continue
		}
		var errs []float64
		for key, v := range rows[dt] {
			if key.m > gemmGridM[len(gemmGridM)-1] || key.n < gemmGridNK[0] || key.k < gemmGridNK[0] ||
				key.n > gemmGridNK[len(gemmGridNK)-1] || key.k > gemmGridNK[len(gemmGridNK)-1] {
				continue
			}
			if f, ok := env[key]; ok && dt == "fp8_block" {
				v = min(v, f) // the cells' rule
			}
			if onGrid(key) {
				continue
			}
			p := interpGemm(c, key.m, key.n, key.k)
			if p > 0 {
				errs = append(errs, math.Abs(p/v-1))
			}
		}
		sort.Float64s(errs)
		if len(errs) == 0 {
			continue
		}
		fmt.Printf("%s\t%s\trows %d\tmedian %.1f%%\tp90 %.1f%%\n", sys, dt, len(errs),
			100*errs[len(errs)/2], 100*errs[len(errs)*9/10])
	}
}

func onGrid(k gemmKey) bool {
	in := func(x float64, xs []float64) bool {
		for _, v := range xs {
			if v == x {
				return true
			}
		}
		return false
	}
	return in(k.m, gemmGridM) && in(k.n, gemmGridNK) && in(k.k, gemmGridNK)
}

// interpGemm is the same lookup as estimate/perf's gemmTable.at (kept in
// step by the held-out figures it prints): log-latency trilinear in
// log M, log N, log K, held flat outside the grid, missing cells skipped
// by renormalising the weights; 0 when no corner has a row.
func interpGemm(c [][][]float64, m, n, k float64) float64 {
	im, fm := gridPos(gemmGridM, m)
	in, fn := gridPos(gemmGridNK, n)
	ik, fk := gridPos(gemmGridNK, k)
	var sum, wsum float64
	for a := 0; a < 2; a++ {
		for b := 0; b < 2; b++ {
			for d := 0; d < 2; d++ {
				w := pick(fm, a) * pick(fn, b) * pick(fk, d)
				if w == 0 {
					continue
				}
				v := c[min(im+a, len(gemmGridM)-1)][min(in+b, len(gemmGridNK)-1)][min(ik+d, len(gemmGridNK)-1)]
				if v <= 0 {
					continue
				}
				sum += w * math.Log(v)
				wsum += w
			}
		}
	}
	if wsum == 0 {
		return 0
	}
	return math.Exp(sum / wsum)
}

func pick(f float64, a int) float64 {
	if a == 0 {
		return 1 - f
	}
	return f
}

// gridPos is x's cell in xs (log scale): index and fraction, clamped.
func gridPos(xs []float64, x float64) (int, float64) {
	if x <= xs[0] {
		return 0, 0
	}
	last := len(xs) - 1
	if x >= xs[last] {
		return last, 0
	}
	i := sort.SearchFloat64s(xs, x)
	if xs[i] == x {
		return i, 0
	}
	i--
	return i, math.Log(x/xs[i]) / math.Log(xs[i+1]/xs[i])
}
