package logs

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/vlaunch/vlaunch/vllm"
)

var (
	ppKVNeedRE = regexp.MustCompile(`needs ([\d.]+) GiB of KV cache; ([\d.]+) GiB is available`)
	ppKVLenRE  = regexp.MustCompile(`estimated maximum model length is (\d+)`)
)

// ppKVCheckFailures rewrites LOG112 on a pipeline-parallel start-up of a
// release whose start-up check counts every layer of the model on every
// stage (vllm.Release.PPKVCheckWholeModel: PR #29431 until PR #33698):
// the "KV cache is needed" figure is the whole model's, not a stage's, so
// the usual advice (lower --max-model-len to vLLM's estimate, more GPUs)
// mistakes the cause. Each stage holds at least need ÷ PP of it (an even
// split; an uneven one gives some stage more): where that fits the
// available memory the refusal is the known false one; where it does not,
// the deployment would not fit even with the fix. The engine's version and
// pipeline size must be in the log (the version banner or engine config,
// and the arguments); a bare error line (vllm-project/vllm#34076's paste)
// says neither, and stays as it is.
func ppKVCheckFailures(rep *Report) {
	for i := range rep.Failures {
		f := &rep.Failures[i]
		if f.Code != CodeMaxLenTooLong {
			continue
		}
		e := engineByID(rep.Engines, f.Engine)
		if e == nil || e.PP == nil || *e.PP < 2 {
			continue
		}
		v, ok := loggedRelease(e.Version)
		if !ok {
			continue
		}
		bug := vllm.Release{Version: v}.PPKVCheckWholeModel()
		if bug.Presence == vllm.Absent {
			continue
		}
		m := ppKVNeedRE.FindStringSubmatch(f.Message)
		if m == nil {
			continue
		}
		need, _ := strconv.ParseFloat(m[1], 64)
		avail, _ := strconv.ParseFloat(m[2], 64)
		pp := *e.PP
		stage := need / float64(pp)
		lenAdvice := "a --max-model-len that check passes"
		if l := ppKVLenRE.FindStringSubmatch(f.Text); l != nil {
			lenAdvice = "--max-model-len " + l[1] + " (vLLM's estimate above is what that check passes)"
		}
		is := "is"
		if bug.Presence == vllm.Maybe {
			is = "may be"
		}
		span := fmt.Sprintf("confirmed in %s; fixed by PR %s, first release with the fix: %s", bug.ConfirmedSpan, bug.FixPR, bug.FixRelease)
		if stage <= avail {
			f.Message += fmt.Sprintf("; at PP %d that %s GiB is the whole model's KV, about %.2f GiB per stage with an even layer split, which fits", pp, m[1], stage)
			f.Fix = fmt.Sprintf("This %s vLLM's known false refusal under pipeline parallelism: vLLM %s's start-up check (get_kv_cache_configs, from PR %s) counts every layer of the model on every stage (vllm-project/vllm#32105; %s). "+
				"Use a release with PR %s, or lower to %s. A higher --gpu-memory-utilization, an fp8 KV cache or more tensor parallelism help only as far as they bring the whole model's KV under one GPU's budget; more pipeline stages do not.",
				is, e.Version, bug.RegressionPR, span, bug.FixPR, lenAdvice)
			continue
		}
		f.Message += fmt.Sprintf("; at PP %d that %s GiB is the whole model's KV, and even an even layer split leaves each stage about %.2f GiB, more than is available", pp, m[1], stage)
		f.Fix = fmt.Sprintf("vLLM %s's start-up check (get_kv_cache_configs, from PR %s) %s known to count every layer of the model on every stage (vllm-project/vllm#32105; %s), so its figure and estimate are the whole model's; "+
			"but a stage's own layers do not fit either. Lower --max-model-len (with PR %s a stage's own length limit is about %d× vLLM's estimate here), raise --gpu-memory-utilization, use an fp8 KV cache (--kv-cache-dtype fp8) or more GPUs per stage.",
			e.Version, bug.RegressionPR, is, span, bug.FixPR, pp)
	}
}

func engineByID(es []Engine, id string) *Engine {
	for i := range es {
		if es[i].ID == id {
			return &es[i]
		}
	}
	return nil
}
