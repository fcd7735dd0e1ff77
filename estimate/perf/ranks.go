package perf

import "math"

// RankRun describes many DP ranks at once: N repetitions of the ranks in
// Loads (rank k of each repetition carries Loads[k]). A step over a large
// deployment is described by a few runs (every rank alike; a pattern of
// representative ranks tiled over the cluster), so its cost does not grow
// with the number of ranks. Step(loads) is the run {loads, 1}.
type RankRun struct {
	Loads []RankLoad
	N     int
}

// rankCount is the number of ranks the runs describe.
func rankCount(runs []RankRun) int {
	n := 0
	for _, r := range runs {
		n += len(r.Loads) * max(0, r.N)
	}
	return n
}

// eachLoad calls f once for every distinct position of the runs (not once
// per rank): enough for maxima and for "is there any".
func eachLoad(runs []RankRun, f func(RankLoad)) {
	for _, r := range runs {
		if r.N <= 0 {
			continue
		}
		for _, l := range r.Loads {
			f(l)
		}
	}
}

// spread is what the all-to-all model reads of a step's loads: the tokens
// of every rank (× frac), of the busiest and idlest GPU, and of the
// busiest and idlest node of the stage's EP group. A rank's tokens are
// split evenly over its TP GPUs (sequence split before dispatch).
type spread struct {
	total, maxGPU, minGPU, maxNode, minNode float64
}

// nodeWalk accumulates per-GPU tokens into nodes, GPU by GPU in rank
// order, keeping only the node being filled and the extremes.
type nodeWalk struct {
	g           int // GPUs per node
	gpu         int // next GPU index
	cur         float64
	sp          spread
	touchedNode int // nodes finished so far
}

// add puts per tokens on the next n GPUs.
func (w *nodeWalk) add(per float64, n int) {
	for n > 0 {
		room := w.g - w.gpu%w.g
		take := min(room, n)
		w.cur += per * float64(take)
		w.gpu += take
		n -= take
		if w.gpu%w.g == 0 {
			w.finishNode()
		}
	}
}

// idle adds n GPUs without tokens: the rest of the node being filled,
// then whole idle nodes at once.
func (w *nodeWalk) idle(n int) {
	w.sp.minGPU = 0
	if r := w.gpu % w.g; r != 0 {
		take := min(w.g-r, n)
		w.add(0, take)
		n -= take
	}
	if n >= w.g {
		w.sp.minNode = 0
		w.gpu += n / w.g * w.g
		w.touchedNode += n / w.g
		n %= w.g
	}
	w.add(0, n)
}

func (w *nodeWalk) finishNode() {
	w.sp.maxNode = max(w.sp.maxNode, w.cur)
	w.sp.minNode = min(w.sp.minNode, w.cur)
	w.cur = 0
	w.touchedNode++
}

// spreadOf computes the spread of the runs' ranks (ranks past DP are
// ignored; ranks the runs do not describe are idle). Runs whose pattern
// tiles whole nodes from a node boundary are summed once per period, so
// the cost grows with the runs' lengths, not with their repetitions.
func (sm *StepModel) spreadOf(runs []RankRun, frac float64) spread {
	s := &sm.S
	tp := max(1, s.TP)
	w := &nodeWalk{g: max(1, s.HW.GPUsPerNode), sp: spread{minGPU: math.Inf(1), minNode: math.Inf(1)}}
	ranks := 0
	for _, run := range runs {
		for rep := 0; rep < run.N && ranks < s.DP; rep++ {
			if k := sm.periodicReps(w, run, rep, ranks, frac); k > 0 {
				rep += k - 1
				ranks += k * len(run.Loads)
				continue
			}
			for _, l := range run.Loads {
				if ranks >= s.DP {
					break
				}
				t := l.tokens(s.SpecTokens) * frac
				per := t / float64(tp)
				w.sp.maxGPU, w.sp.minGPU = max(w.sp.maxGPU, per), min(w.sp.minGPU, per)
				w.sp.total += t
				w.add(per, tp)
				ranks++
			}
		}
	}
	if ranks < s.DP {
		w.idle((s.DP - ranks) * tp)
	}
	if w.gpu%w.g != 0 {
		w.finishNode() // the last node of a group whose GPUs do not fill it
	}
	if w.sp.minNode > w.sp.maxNode {
		w.sp.minNode = w.sp.maxNode
	}
	return w.sp
}

// periodicReps sums, at once, as many whole repetitions of run (from
// repetition rep, at rank index at) as tile whole nodes from a node
// boundary, and returns how many it took (0: do them rank by rank).
func (sm *StepModel) periodicReps(w *nodeWalk, run RankRun, rep, at int, frac float64) int {
	s := &sm.S
	tp := max(1, s.TP)
	period := len(run.Loads) * tp // GPUs per repetition
	left := min(run.N-rep, (s.DP-at)/max(1, len(run.Loads)))
	if left < 2 || period == 0 || w.gpu%w.g != 0 {
		return 0
	}
	var perNodes int // repetitions that fill whole nodes
	switch {
	case period%w.g == 0:
		perNodes = 1
	case w.g%period == 0:
		perNodes = w.g / period
	default:
		return 0
	}
	k := left / perNodes * perNodes
	if k < 2 {
		return 0
	}
	// One group of perNodes repetitions, node by node.
	var sum float64
	sub := &nodeWalk{g: w.g, sp: spread{minGPU: math.Inf(1), minNode: math.Inf(1)}}
	for i := 0; i < perNodes; i++ {
		for _, l := range run.Loads {
			t := l.tokens(s.SpecTokens) * frac
			per := t / float64(tp)
			sub.sp.maxGPU, sub.sp.minGPU = max(sub.sp.maxGPU, per), min(sub.sp.minGPU, per)
			sum += t
			sub.add(per, tp)
		}
	}
	groups := k / perNodes
	w.sp.total += sum * float64(groups)
	w.sp.maxGPU, w.sp.minGPU = max(w.sp.maxGPU, sub.sp.maxGPU), min(w.sp.minGPU, sub.sp.minGPU)
	w.sp.maxNode, w.sp.minNode = max(w.sp.maxNode, sub.sp.maxNode), min(w.sp.minNode, sub.sp.minNode)
	w.gpu += groups * perNodes * period
	w.touchedNode += groups * sub.touchedNode
	return k
}
