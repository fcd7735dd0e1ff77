package main

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// SystemYAML holds the datasheet figures read from systems/<name>.yaml.
type SystemYAML struct {
	MemBW        float64 `json:"mem_bw_Bps"`
	BF16FLOPS    float64 `json:"bf16_tc_flops"`
	FP8FLOPS     float64 `json:"fp8_tc_flops,omitempty"`
	FP4FLOPS     float64 `json:"-"` // read for the MoE curves (moecurve.go) only
	IntraNodeBW  float64 `json:"intra_node_bw_Bps"`
	InterNodeBW  float64 `json:"inter_node_bw_Bps"`
	GPUsPerNode  float64 `json:"num_gpus_per_node"`
	MemCapacity  float64 `json:"mem_capacity_B"`
	NCCLVersion  string  `json:"nccl_version"`
	SMVersion    float64 `json:"sm_version"`
	EmpBWScaling float64 `json:"mem_bw_empirical_scaling_factor"`
}

// readYAML pulls the few scalar keys needed; the files are flat key: value
// maps with trailing comments, so a line scanner is enough.
func readYAML(path string) (SystemYAML, error) {
	var y SystemYAML
	f, err := os.Open(path)
	if err != nil {
		return y, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), "'\"")
		num, _ := strconv.ParseFloat(v, 64)
		switch k {
		case "mem_bw":
			y.MemBW = num
		case "bfloat16_tc_flops":
			y.BF16FLOPS = num
		case "fp8_tc_flops":
			y.FP8FLOPS = num
		case "fp4_tc_flops":
			y.FP4FLOPS = num
		case "intra_node_bw":
			y.IntraNodeBW = num
		case "inter_node_bw":
			y.InterNodeBW = num
		case "num_gpus_per_node":
			y.GPUsPerNode = num
		case "mem_capacity":
			y.MemCapacity = num
		case "nccl_version":
			y.NCCLVersion = v
		case "sm_version":
			y.SMVersion = num
		case "mem_bw_empirical_scaling_factor":
			y.EmpBWScaling = num
		}
	}
	return y, sc.Err()
}

// versionLess orders release strings numerically by dotted component
// (non-numeric tails such as "rc5" or "post2" compare as strings).
func versionLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		if ea == nil && eb == nil {
			if na != nb {
				return na < nb
			}
			continue
		}
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return len(pa) < len(pb)
}

// latestFile returns the file name under dir/<version>/ of the newest
// version directory that holds it (directories holding only reuse.yaml
// point at a donor release and are skipped), and that version.
func latestFile(dir, name string) (string, string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", ""
	}
	var vs []string
	for _, e := range ents {
		if e.IsDir() {
			vs = append(vs, e.Name())
		}
	}
	sort.Slice(vs, func(i, j int) bool { return versionLess(vs[i], vs[j]) })
	for i := len(vs) - 1; i >= 0; i-- {
		p := filepath.Join(dir, vs[i], name)
		if _, err := os.Stat(p); err == nil {
			return p, vs[i]
		}
	}
	return "", ""
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return nan
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func maxf(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = math.Max(m, x)
	}
	if len(xs) == 0 {
		return nan
	}
	return m
}

func minf(xs []float64) float64 {
	m := math.Inf(1)
	for _, x := range xs {
		m = math.Min(m, x)
	}
	if len(xs) == 0 {
		return nan
	}
	return m
}

// r rounds to n significant digits for compact JSON.
func r(x float64, n int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return -1
		}
		return 0
	}
	d := math.Ceil(math.Log10(math.Abs(x)))
	p := math.Pow(10, float64(n)-d)
	return math.Round(x*p) / p
}

// fitLine returns a, b of y = a + b*x by least squares.
func fitLine(xs, ys []float64) (float64, float64) {
	n := float64(len(xs))
	if n < 2 {
		return nan, nan
	}
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
	}
	b := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return (sy - b*sx) / n, b
}

// fit3 returns a, b, c of y = a + b·x1 + c·x2 by least squares (normal
// equations solved by Cramer's rule).
func fit3(x1, x2, y []float64) (float64, float64, float64) {
	var n, s1, s2, s11, s12, s22, sy, s1y, s2y float64
	for i := range y {
		n++
		s1 += x1[i]
		s2 += x2[i]
		s11 += x1[i] * x1[i]
		s12 += x1[i] * x2[i]
		s22 += x2[i] * x2[i]
		sy += y[i]
		s1y += x1[i] * y[i]
		s2y += x2[i] * y[i]
	}
	det := func(a, b, c, d, e, f, g, h, i float64) float64 {
		return a*(e*i-f*h) - b*(d*i-f*g) + c*(d*h-e*g)
	}
	D := det(n, s1, s2, s1, s11, s12, s2, s12, s22)
	if n < 3 || D == 0 {
		return nan, nan, nan
	}
	a := det(sy, s1, s2, s1y, s11, s12, s2y, s12, s22) / D
	b := det(n, sy, s2, s1, s1y, s12, s2, s2y, s22) / D
	c := det(n, s1, sy, s1, s11, s1y, s2, s12, s2y) / D
	return a, b, c
}
