package fitter

import (
	"math"
	"slices"
)

// minimise searches the fitted constants in normalised log coordinates (0 =
// lower bound, 1 = upper bound). The objective is a worst case, whose kinks
// stall a plain simplex, and the start (the global constants) may be far
// from a cluster's values, so the search
//
//  1. scores the start and a spread of points over the box (a Halton
//     sequence: deterministic, evenly filling any number of dimensions);
//  2. from the best few, runs Nelder–Mead on a smooth stand-in for the
//     worst case, the log-sum-exp of the errors, sharpening it in steps
//     (each step starts where the last ended);
//  3. polishes the best point on the objective itself.
//
// f is the full objective; smooth(β) its log-sum-exp stand-in. It is
// deterministic and stops at the evaluation budget.
func minimise(params []Param, fitted []bool, start []float64, f func([]float64) float64, smooth func(x []float64, beta float64) float64, budget int) []float64 {
	idx := fittedIndexes(fitted)
	sp := space{params: params, idx: idx, start: start}
	b := &budgeted{left: budget}
	u0 := sp.toU(start)
	best, bestF := u0, b.call(f, sp.toX(u0))
	seeds := []vertex{{best, bestF}}
	for i := 1; i <= seedsPerDim*len(idx) && b.left > 0; i++ {
		u := halton(i, len(idx))
		seeds = append(seeds, vertex{u, b.call(f, sp.toX(u))})
	}
	slices.SortStableFunc(seeds, func(a, c vertex) int { return cmpF(a.f, c.f) })
	for _, s := range seeds[:min(len(seeds), searchStarts)] {
		u := s.u
		for _, beta := range []float64{10, 30, 100} {
			g := func(u []float64) float64 {
				return b.call(func(x []float64) float64 { return smooth(x, beta) }, sp.toX(u))
			}
			u, _ = nelderMead(g, u, 0.15, b.share(searchStarts*4))
		}
		g := func(u []float64) float64 { return b.call(f, sp.toX(u)) }
		u, fu := nelderMead(g, u, 0.05, b.share(searchStarts))
		if fu < bestF {
			best, bestF = u, fu
		}
	}
	return sp.toX(best)
}

// seedsPerDim and searchStarts size the search: seedsPerDim × constants
// scored points, searchStarts local searches from the best of them.
const (
	seedsPerDim  = 8
	searchStarts = 3
)

// space maps the fitted constants to [0,1]^n (log scale) and back.
type space struct {
	params []Param
	idx    []int
	start  []float64
}

func (sp space) toX(u []float64) []float64 {
	x := slices.Clone(sp.start)
	for k, i := range sp.idx {
		p := sp.params[i]
		x[i] = math.Exp(math.Log(p.Lower) + clamp01(u[k])*math.Log(p.Upper/p.Lower))
	}
	return x
}

func (sp space) toU(x []float64) []float64 {
	u := make([]float64, len(sp.idx))
	for k, i := range sp.idx {
		p := sp.params[i]
		u[k] = math.Log(x[i]/p.Lower) / math.Log(p.Upper/p.Lower)
	}
	return u
}

// budgeted counts evaluations against a budget.
type budgeted struct{ left int }

func (b *budgeted) call(f func([]float64) float64, x []float64) float64 {
	b.left--
	return f(x)
}

// share is what one of n remaining phases may spend (at least a few).
func (b *budgeted) share(n int) int { return max(4, b.left/max(1, n)) }

// halton is point i of the Halton sequence in n dimensions (bases: the
// first n primes).
func halton(i, n int) []float64 {
	u := make([]float64, n)
	for d := range u {
		base := primes[d%len(primes)]
		f, r := 1.0, 0.0
		for k := i; k > 0; k /= base {
			f /= float64(base)
			r += f * float64(k%base)
		}
		u[d] = r
	}
	return u
}

var primes = []int{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}

func fittedIndexes(fitted []bool) []int {
	var idx []int
	for i, f := range fitted {
		if f {
			idx = append(idx, i)
		}
	}
	return idx
}

func clamp01(v float64) float64 { return min(1, max(0, v)) }

// vertex is one simplex point and its objective.
type vertex struct {
	u []float64
	f float64
}

// nelderMead minimises g over [0,1]^n from u0 with an initial simplex of
// the given step, within budget evaluations; it returns the best point, its
// value.
func nelderMead(g func([]float64) float64, u0 []float64, step float64, budget int) ([]float64, float64) {
	n := len(u0)
	used := 0
	eval := func(u []float64) vertex {
		c := make([]float64, n)
		for i := range u {
			c[i] = clamp01(u[i])
		}
		used++
		return vertex{c, g(c)}
	}
	s := []vertex{eval(u0)}
	for i := 0; i < n; i++ {
		u := slices.Clone(u0)
		if u[i]+step <= 1 {
			u[i] += step
		} else {
			u[i] -= step
		}
		s = append(s, eval(u))
	}
	for used < budget {
		slices.SortStableFunc(s, func(a, b vertex) int { return cmpF(a.f, b.f) })
		if spread(s) < 1e-4 {
			break
		}
		c := centroid(s[:n])
		w := s[n]
		r := eval(along(c, w.u, -1))
		switch {
		case r.f < s[0].f:
			if e := eval(along(c, w.u, -2)); e.f < r.f {
				s[n] = e
			} else {
				s[n] = r
			}
		case r.f < s[n-1].f:
			s[n] = r
		default:
			if k := eval(along(c, w.u, 0.5)); k.f < w.f {
				s[n] = k
				continue
			}
			for i := 1; i <= n; i++ { // shrink towards the best
				s[i] = eval(along(s[0].u, s[i].u, 0.5))
			}
		}
	}
	slices.SortStableFunc(s, func(a, b vertex) int { return cmpF(a.f, b.f) })
	return s[0].u, s[0].f
}

// along is c + t·(p − c).
func along(c, p []float64, t float64) []float64 {
	out := make([]float64, len(c))
	for i := range c {
		out[i] = c[i] + t*(p[i]-c[i])
	}
	return out
}

func centroid(vs []vertex) []float64 {
	c := make([]float64, len(vs[0].u))
	for _, v := range vs {
		for i := range c {
			c[i] += v.u[i] / float64(len(vs))
		}
	}
	return c
}

// spread is the largest coordinate distance from the best vertex.
func spread(s []vertex) float64 {
	d := 0.0
	for _, v := range s[1:] {
		for i := range v.u {
			d = max(d, math.Abs(v.u[i]-s[0].u[i]))
		}
	}
	return d
}

// cmpF orders values with NaN last.
func cmpF(a, b float64) int {
	switch {
	case math.IsNaN(a) && math.IsNaN(b):
		return 0
	case math.IsNaN(a):
		return 1
	case math.IsNaN(b):
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
