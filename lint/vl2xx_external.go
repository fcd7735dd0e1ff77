package lint

import "fmt"

// checkExternalRanks reports per-rank servers (external LB: one vllm serve
// per --data-parallel-rank, as per-rank DP launchers start them) whose ranks
// collide or fall outside the DP size (VL221): a duplicate rank waits
// forever for the missing one, and vLLM refuses a rank >= DP size.
func checkExternalRanks(p *pass) {
	for _, g := range p.Groups {
		seen := map[int]*server{}
		for _, s := range g {
			r := s.Int("data-parallel-rank", 0)
			dp := s.DP()
			if !r.Set || !r.Known {
				continue
			}
			if dp.Known && (r.N < 0 || r.N >= dp.N) {
				p.ReportAt(s.Inv, r.At, fmt.Sprintf("ranks run from 0 to %d", dp.N-1), "--data-parallel-rank %d is outside --data-parallel-size %d", r.N, dp.N)
				continue
			}
			if prev, dup := seen[r.N]; dup {
				p.ReportAt(s.Inv, r.At, "give every per-rank server its own --data-parallel-rank", "--data-parallel-rank %d is also used by %s: that rank starts twice and another never starts", r.N, prev.Inv.Node)
			}
			seen[r.N] = s
		}
	}
}
