package plan

// Candidate is one evaluated candidate.
type Candidate struct {
	Settings
	// Rank is the 1-based place in the ranking (0: not ranked, e.g. the
	// spec's own settings when they do not fit).
	Rank int `json:"rank"`
	// Own marks the spec's own settings.
	Own bool `json:"own,omitempty"`
	// All2AllInEffect is the backend that runs (`auto` resolved); "" when
	// no all-to-all runs.
	All2AllInEffect string `json:"all2all_in_effect,omitempty"`
	GPUs            int    `json:"gpus"`
	// Fits is the memory verdict; KVGiB the KV cache per GPU.
	Fits       bool    `json:"fits"`
	WeightsGiB float64 `json:"weights_gib_per_gpu"`
	KVGiB      float64 `json:"kv_cache_gib_per_gpu"`
	// SessionsAtOnce is how many of the fullest DP rank's SessionsPerRank
	// sessions its KV cache holds at once at full length, when not all
	// (EST103: vLLM queues the rest and preempts); both 0 when all fit.
	SessionsAtOnce  int `json:"sessions_at_once_per_rank,omitempty"`
	SessionsPerRank int `json:"sessions_per_rank,omitempty"`
	// OutputTokPerS and TPOTS are at the workload's load: simulated when
	// Simulated, else the step model's steady decode (an optimistic bound).
	OutputTokPerS float64 `json:"output_tokens_per_s"`
	PerGPU        float64 `json:"output_tokens_per_s_per_gpu"`
	TPOTS         float64 `json:"tpot_s"`
	Simulated     bool    `json:"simulated"`
	// Confirmed marks figures from a simulation as large as `vlaunch
	// check` runs (the best candidate's); the others come from the ranking
	// simulation (fewer requests).
	Confirmed bool `json:"confirmed,omitempty"`
	// SteadyPerGPU and SteadyTPOTS are the step model's steady decode at
	// the workload's concurrency, for every candidate that fits: the one
	// basis the Pareto front compares on.
	SteadyPerGPU float64     `json:"steady_output_tokens_per_s_per_gpu"`
	SteadyTPOTS  float64     `json:"steady_tpot_s"`
	SLO          []SLOResult `json:"slo"`
	// Alike are other candidates with exactly these figures (listed, not
	// ranked separately; at most maxAlike, each verified), AlikeMore how
	// many more (not verified).
	Alike     []string `json:"alike,omitempty"`
	AlikeMore int      `json:"alike_more,omitempty"`
	// Binding is the resource that binds the decode step (a P/D
	// candidate: the part that binds its request rate).
	Binding string `json:"binding"`
	// PD are a P/D candidate's figures (nil: colocated).
	PD    *PDFigures `json:"disaggregated,omitempty"`
	Score Score      `json:"-"`
}

// NoneFail reports whether the candidate fits and no SLO fails (pass or
// uncertain: the exit-code rule `check` follows).
func (c *Candidate) NoneFail() bool {
	for _, v := range c.SLO {
		if v.Verdict == verdictFail {
			return false
		}
	}
	return c.Fits
}

// MeetsAll reports whether every SLO passes.
func (c *Candidate) MeetsAll() bool {
	for _, v := range c.SLO {
		if v.Verdict != verdictPass {
			return false
		}
	}
	return c.Fits
}

// Subject is what was planned for.
type Subject struct {
	Model string `json:"model"`
	GPU   string `json:"gpu"`
	GPUs  int    `json:"gpus"`
	Nodes int    `json:"nodes"`
	VLLM  string `json:"vllm_version"`
}

// Result is the answer of `vlaunch plan`.
type Result struct {
	Subject Subject `json:"subject"`
	// Top are the best candidates, best first.
	Top []Candidate `json:"top"`
	// Own is the spec's own settings as a candidate, wherever they rank
	// (nil for `parallelism: auto`); OwnSettings are the settings the spec
	// asks for, which Apply changes.
	Own         *Candidate `json:"own,omitempty"`
	OwnSettings Settings   `json:"spec_settings"`
	// Calibration names the efficiency constants every prediction used
	// (resolve.Calibration.Describe).
	Calibration string `json:"calibration"`
	// Pareto is the front of output tokens/s per GPU against TPOT (pareto);
	// Points are the best candidate of every group that fits, for the chart.
	Pareto []ParetoPoint `json:"pareto"`
	Points []Candidate   `json:"-"`
	// Unmet are the SLOs no candidate passes — failed, or uncertain within
	// the model's accuracy band — with the smallest change that would.
	Unmet []Unmet `json:"unmet,omitempty"`
	// Sensitivity is, for the top candidate, the smallest change of each
	// workload or hardware parameter that flips each SLO verdict.
	Sensitivity []Flip `json:"sensitivity,omitempty"`
	Stats       Stats  `json:"stats"`
	// Left are the dimensions not varied, with why.
	Left []string `json:"not_varied,omitempty"`
	// PD is what plan did about prefill/decode disaggregation.
	PD PDSummary `json:"disaggregation"`
	// Objective is what the list optimises (Objectives; "" is
	// ObjectivePerGPU); Fewest is what ObjectiveFewestGPUs tried.
	Objective string      `json:"objective,omitempty"`
	Fewest    *FewestGPUs `json:"fewest_gpus,omitempty"`
	// Requested is how many candidates were asked for (--top): the list
	// is shorter when fewer groups were simulated.
	Requested int `json:"top_requested"`
}

// Unmet is an SLO no candidate passes on this hardware.
type Unmet struct {
	SLO string `json:"slo"`
	// Best is the closest candidate (simulated, best margin on the SLO)
	// and its prediction: "#N (settings)" when it is listed, else its
	// settings in full and why it is not listed; BestRank is its place in
	// the list (0: not listed).
	Best     string `json:"best"`
	BestRank int    `json:"best_rank,omitempty"`
	best     *evaluated
	// predicted words the closest candidate's prediction.
	predicted string
	// Verdict is the closest candidate's verdict on it: fail, or uncertain
	// (its prediction band straddles the target: neither met nor failed).
	Verdict string `json:"verdict"`
	// Change is the smallest hardware change that would meet it with the
	// best candidate, or why none within the range tried does.
	Change string `json:"change"`
	// Unsearched: candidates whose bound allows the SLO were left
	// unsimulated because the plan's simulation budget had run out, so one
	// of them may meet it.
	Unsearched bool `json:"unsearched,omitempty"`
}

// Flip is the smallest change of one parameter that flips one verdict.
type Flip struct {
	Parameter string `json:"parameter"`
	SLO       string `json:"slo"`
	// From and To are the parameter now and where the verdict flips (To is
	// 0 when no value in the range tried flips it).
	From float64 `json:"from"`
	To   float64 `json:"to,omitempty"`
	// Now words the current value; Text the flip (or that none was found).
	Now  string `json:"now"`
	Text string `json:"text"`
	// Range and Verdict are set when nothing in the range tried flips it:
	// the values tried and the verdict that holds over them.
	Range   string `json:"range,omitempty"`
	Verdict string `json:"verdict,omitempty"`
}

// Stats count what each stage of the search did.
type Stats struct {
	// Enumerated counts the settings the search space lists (Space).
	Enumerated int `json:"enumerated"`
	// Candidates counts what plan resolves: the enumerated settings and,
	// unless the layout is `parallelism: auto`, the spec's own (which the
	// space need not hold: a max_num_seqs it does not try). Distinct
	// counts those left once each engine that resolves alike is counted
	// once and resolve's refusals are set aside, so it is never above
	// Candidates (qa43: "16 candidates, 17 distinct").
	Candidates int `json:"candidates"`
	// Refused are candidates resolve refuses, or the generator refuses
	// among those that fit in memory, counted by reason (Reasons, in order
	// of first appearance).
	Refused   int      `json:"refused"`
	Reasons   []Reason `json:"refused_because,omitempty"`
	Distinct  int      `json:"distinct"`
	FitMemory int      `json:"fit_memory"`
	StepModel int      `json:"step_model"`
	Simulated int      `json:"simulated"`
	// Groups counts the groups (a layout with its weight and KV formats;
	// the top list shows each group's best tuning once) among the
	// simulated candidates.
	Groups int `json:"simulated_groups"`
	// Unsettled counts the groups left unsimulated when the ranking
	// simulations' budget ran out (planWorkBudget) whose step-model bound
	// could still have entered the top list.
	Unsettled int `json:"unsettled,omitempty"`
	// PDUnsettled counts the P/D groups left unsimulated, once
	// PDSimBudget was spent, whose bound could still rank first.
	PDUnsettled int `json:"pd_unsettled,omitempty"`
	// spent is the work the ranking simulations have spent so far (in
	// sim.Result.Work units), against planWorkBudget; pdSimulated counts
	// the P/D ranking simulations, against PDSimBudget.
	spent       int64
	pdSimulated int
}

// budgetLeft reports whether the ranking simulations may go on.
func (s *Stats) budgetLeft() bool { return s.spent < planWorkBudget }

// Reason is why some candidates were refused, and how many.
type Reason struct {
	Why   string `json:"why"`
	Count int    `json:"count"`
}

func (s *Stats) refuse(why string) {
	s.Refused++
	for i := range s.Reasons {
		if s.Reasons[i].Why == why {
			s.Reasons[i].Count++
			return
		}
	}
	s.Reasons = append(s.Reasons, Reason{Why: why, Count: 1})
}
