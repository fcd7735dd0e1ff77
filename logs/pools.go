package logs

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Pool is one pool of a prefill/decode-disaggregated spec, as far as
// AssignPools needs it to tell which engines of the logs are the pool's.
type Pool struct {
	// Name is the pool's name in the spec ("prefill", "decode").
	Name string
	// KVRole is the kv_role the spec gives the pool's engines
	// (kv_producer for prefill, kv_consumer for decode: resolve.Role.KVRole).
	KVRole string
	// Nodes are the names and addresses of the nodes the pool runs on.
	Nodes []string
}

// AssignPools sets each engine's Pool, and PoolBy how it was told: by the
// kv_role the engine's arguments logged (kv_producer, kv_consumer) when a
// pool has that role; otherwise (kv_both, or no role logged) by the hints
// of where the engine ran — its files' names, its pod or service, its
// ranks' hosts — when they name exactly one pool (the pool's name, one of
// its nodes' names or addresses). When neither tells, Pool stays "" and
// PoolBy says why: the engine is compared with neither pool (ComparePools),
// never assigned by a guess.
func AssignPools(r *Report, pools []Pool) {
	for i := range r.Engines {
		e := &r.Engines[i]
		e.Pool, e.PoolBy = assignPool(e, pools)
	}
}

// assignPool is one engine's pool and how it was told ("" and why not).
func assignPool(e *Engine, pools []Pool) (string, string) {
	role := ""
	if e.KVTransfer != nil {
		role = e.KVTransfer.Role
	}
	hinted, hints := poolHints(e, pools)
	if role != "" {
		for _, p := range pools {
			if p.KVRole != "" && p.KVRole == role {
				by := "kv_role " + role + " (logged)"
				if len(hinted) == 1 && hinted[0] != p.Name {
					by += fmt.Sprintf("; %s would say %s", strings.Join(hints[hinted[0]], ", "), hinted[0])
				}
				return p.Name, by
			}
		}
	}
	said := "no kv_role logged"
	if role != "" {
		said = "kv_role " + role + " (logged) is no pool's own"
	}
	switch len(hinted) {
	case 1:
		return hinted[0], fmt.Sprintf("%s; %s", said, strings.Join(hints[hinted[0]], ", "))
	case 0:
		return "", said + ", and no file name, pod or host names one pool's name or node"
	}
	var each []string
	for _, name := range hinted {
		each = append(each, fmt.Sprintf("%s says %s", strings.Join(hints[name], ", "), name))
	}
	return "", said + ", and the hints name several pools (" + strings.Join(each, "; ") + ")"
}

// poolHints are the pools the engine's hints name, in the pools' order,
// with the hints that name each ("file prefill.log", "host 10.0.0.11").
func poolHints(e *Engine, pools []Pool) ([]string, map[string][]string) {
	type hint struct{ kind, text string }
	var hs []hint
	for _, f := range e.Files {
		hs = append(hs, hint{"file", filepath.Base(f)})
	}
	// The pod or service a capture's prefix named (the engine ID's part
	// before its DP rank; the file name when the files were kept apart).
	if i := strings.LastIndex(e.ID, "/"); i > 0 && !slices.ContainsFunc(hs, func(h hint) bool { return h.text == e.ID[:i] }) {
		hs = append(hs, hint{"pod", e.ID[:i]})
	}
	hosts := map[string]bool{}
	for _, rk := range e.Ranks {
		if rk.Host != "" && !hosts[rk.Host] {
			hosts[rk.Host] = true
			hs = append(hs, hint{"host", rk.Host})
		}
	}
	out := map[string][]string{}
	var named []string
	for _, p := range pools {
		for _, h := range hs {
			if !namesPool(h.text, p) {
				continue
			}
			if out[p.Name] == nil {
				named = append(named, p.Name)
			}
			s := h.kind + " " + h.text
			if !slices.Contains(out[p.Name], s) {
				out[p.Name] = append(out[p.Name], s)
			}
		}
	}
	return named, out
}

// namesPool: one of the hint's words is the pool's name or begins with it
// ("prefill0", "decoder"), or the hint holds one of the pool's nodes'
// names or addresses as a whole ("node1" in "node1.log", not in
// "node10.log"; "gpu-a" in "gpu-a.log").
func namesPool(text string, p Pool) bool {
	lower := strings.ToLower(text)
	for _, w := range strings.FieldsFunc(lower, func(r rune) bool { return !wordRune(r) }) {
		if p.Name != "" && strings.HasPrefix(w, strings.ToLower(p.Name)) {
			return true
		}
	}
	for _, n := range p.Nodes {
		if n != "" && holdsWhole(lower, strings.ToLower(n)) {
			return true
		}
	}
	return false
}

func wordRune(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }

// holdsWhole: s holds sub with no letter or digit right before or after it.
func holdsWhole(s, sub string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], sub)
		if i < 0 {
			return false
		}
		i += from
		j := i + len(sub)
		if (i == 0 || !wordRune(rune(s[i-1]))) && (j == len(s) || !wordRune(rune(s[j]))) {
			return true
		}
		from = i + 1
	}
}

// ComparePools is Compare for a P/D spec: each engine is compared with
// the prediction of the pool AssignPools gave it, by the same comparison
// as a colocated spec's engines, and its rows name the pool. An engine
// whose pool cannot be told is compared with neither, and a note row says
// why.
func ComparePools(r *Report, preds map[string]Prediction) {
	r.Comparison = []Comparison{}
	for i := range r.Engines {
		e := &r.Engines[i]
		if !hasFigures(e) {
			continue
		}
		p, ok := preds[e.Pool]
		if e.Pool == "" || !ok {
			why := e.PoolBy
			if e.Pool != "" {
				why = "the spec has no pool " + e.Pool
			}
			r.Comparison = append(r.Comparison, Comparison{Engine: e.ID, Term: "pool", Unit: "note",
				Explanation: "cannot tell which pool this engine is: " + why + "; compared with neither pool's prediction"})
			continue
		}
		rows := compareEngine(r, e, p)
		for j := range rows {
			rows[j].Pool = e.Pool
		}
		r.Comparison = append(r.Comparison, rows...)
	}
}
