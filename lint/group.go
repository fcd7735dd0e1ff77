package lint

import (
	"encoding/json"
	"strings"
)

// groupServers puts servers of one deployment together: same model, same
// global DP size, same disaggregation role and same manifest object.
// Servers with DP = 1 and no --nnodes stand alone.
func groupServers(servers []*server) [][]*server {
	index := map[string]int{}
	var groups [][]*server
	for _, s := range servers {
		key := groupKey(s)
		i, ok := index[key]
		if !ok || key == "" {
			i = len(groups)
			groups = append(groups, nil)
			if key != "" {
				index[key] = i
			}
		}
		groups[i] = append(groups[i], s)
	}
	return groups
}

func groupKey(s *server) string {
	dp, nn := s.DP(), s.NNodes()
	if dp.Known && dp.N <= 1 && nn.Known && nn.N <= 1 && !s.Headless() {
		return ""
	}
	return strings.Join([]string{s.Inv.Deployment, kvRole(s), wrapperRole(s)}, "\x00")
}

func dpText(s *server) string {
	if f := s.Flag("data-parallel-size"); f != nil && f.Value != nil {
		return f.Value.Text
	}
	return "1"
}

// kvRole reads kv_role from --kv-transfer-config (P/D disaggregation).
func kvRole(s *server) string {
	v, ok := s.Str("kv-transfer-config")
	if !ok {
		return ""
	}
	var cfg struct {
		Role string `json:"kv_role"`
	}
	_ = json.Unmarshal([]byte(v.Text), &cfg)
	return cfg.Role
}

// multiNode reports whether a group spans several nodes.
func multiNode(g []*server) bool {
	if len(g) > 1 {
		return true
	}
	for _, s := range g {
		if s.MultiNodeDP() || (s.NNodes().N > 1) {
			return true
		}
	}
	return false
}

// dpNodes returns the group's servers that take part in mp data parallel
// (not Ray DP, not external-LB single ranks, not --nnodes engines).
func dpNodes(g []*server) []*server {
	var out []*server
	for _, s := range g {
		if s.RayDP() || s.Flag("data-parallel-rank") != nil || s.NNodes().N > 1 || !s.NNodes().Known {
			continue
		}
		out = append(out, s)
	}
	return out
}
