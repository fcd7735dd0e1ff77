package logs

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/vlaunch/vlaunch/vllm"
)

// vLLM validates its configuration with pydantic (vllm/config/*.py are
// pydantic dataclasses): a refused value surfaces as
//
//	pydantic_core._pydantic_core.ValidationError: 1 validation error for ParallelConfig
//	  Value error, World size (2) is larger than the number of available GPUs (1) in this
//	  node. If this is intentional and …  [type=value_error, input_value=…, input_type=…]
//
// The exception line names only the class; the reason is pydantic's
// "Value error, <message>" line under it (the ValueError vLLM raised),
// which any release since the pydantic configs (≈0.10) prints the same way
// (the fixtures: a kubectl capture of the world-size check, vllm#33580,
// Tencent-Hunyuan/HunyuanImage-3.0#54).

// pydanticWindow is how many lines after its exception line pydantic's
// "Value error" line may come: the count line, a location line per error
// (none for a model validator), then the message.
const pydanticWindow = 8

// pydanticNote is the ValidationError a file showed last, whose reason
// the next "Value error" line gives.
type pydanticNote struct {
	p     *proc
	no    int
	model string
}

var (
	validationCount = regexp.MustCompile(`\d+ validation errors? for (\w+)`)
	// valueErrorLine is pydantic's line; the " [type=value_error, …]"
	// suffix pydantic ≥ 2 appends is not part of the reason.
	valueErrorLine = regexp.MustCompile(`(?:^|\s)Value error, (.+?)(?:\s+\[type=\w+.*)?\s*$`)
)

// worldSize is vllm.ExecutorTooSmallMessage (the message lint's VL111
// quotes) up to its second figure, the figures captured: pasted logs wrap
// the rest ("… (1) in this\n  node.").
var worldSize = sizesPattern(vllm.ExecutorTooSmallMessage)

// tensorSize is vllm.ExecutorTooSmallMessage0111, the figures captured.
var tensorSize = sizesPattern(vllm.ExecutorTooSmallMessage0111)

// sizesPattern is an executor refusal's message up to its second figure,
// "(X)" and "(Y)" captured as numbers.
func sizesPattern(msg string) *regexp.Regexp {
	msg = msg[:strings.Index(msg, "(Y)")+len("(Y)")]
	q := strings.NewReplacer(`\(X\)`, `\((\d+)\)`, `\(Y\)`, `\((\d+)\)`).Replace(regexp.QuoteMeta(msg))
	return regexp.MustCompile(q)
}

// worldSizeFail reports the refusal of an engine larger than the node
// (either wording: m[1] the engine's size, m[2] the node's GPUs).
func worldSizeFail(c *ctx, m [][]byte) {
	c.noted = true
	c.fail(CodeWorldSize, fmt.Sprintf("one engine's world size (tensor × pipeline parallel) is %s but vLLM sees %s GPU(s) on this node: the parallel configuration was refused before any engine started", m[1], m[2]),
		fmt.Sprintf("vLLM saw %s GPU(s) where the engine needs %s.", m[2], m[1]))
}

func configFailureRules() []rule {
	head := r(one("ValidationError"), `ValidationError\b`, func(c *ctx, _ [][]byte) {
		if c.l.indent {
			return
		}
		n := &pydanticNote{p: c.p, no: c.l.no}
		if m := validationCount.FindSubmatch(c.l.msg); m != nil {
			n.model = string(m[1])
		}
		c.f.pydantic = n
	})
	count := r(one(" validation error"), "", func(c *ctx, _ [][]byte) {
		n := c.f.pydantic
		if m := validationCount.FindSubmatch(c.l.msg); m != nil && n != nil && n.model == "" && c.l.no-n.no <= 2 {
			n.model = string(m[1])
		}
	})
	value := r(one("Value error, "), valueErrorLine.String(), func(c *ctx, m [][]byte) {
		c.noted = true
		reason := clip(strings.TrimSpace(string(m[1])), 300)
		n := c.f.pydantic
		if n == nil || c.l.no-n.no > pydanticWindow || n.p.exc == nil || n.p.exc.at != (lineRef{n.p.file, n.no}) {
			// An excerpt that starts at the reason: the line is the exception.
			c.p.noteException(c.l)
			return
		}
		text := strings.TrimSuffix(strings.TrimSpace(n.p.exc.text), ":")
		if n.model != "" && !strings.Contains(text, "validation error") {
			text += " for " + n.model
		}
		n.p.exc.text = clip(text+": Value error, "+reason, 400)
		c.f.pydantic = nil
	})
	world := r(one("is larger than the number of available GPUs"), worldSize.String(), worldSizeFail)
	// 0.11.1-0.12.x word the same refusal otherwise
	// (vllm.ExecutorTooSmallMessage0111).
	tpSize := r(one("cannot be larger than the number of available GPUs"), tensorSize.String(), worldSizeFail)
	// vllm/model_executor/models/registry.py (_raise_for_unsupported, as
	// vLLM's troubleshooting docs quote it):
	// "Model architectures ['HunyuanImage3ForCausalMM'] are not supported
	// for now. Supported architectures: dict_keys([…])"
	// (Tencent-Hunyuan/HunyuanImage-3.0#54, ≈0.11).
	arch := r(one("are not supported for now"), `Model architectures \[([^\]]*)\] are not supported for now`, func(c *ctx, m [][]byte) {
		c.noted = true
		names := archNames(string(m[1]))
		c.fail(CodeUnsupportedArch, fmt.Sprintf("this vLLM release does not register the architecture %s (its model registry has no implementation of it)", strings.Join(names, ", ")), archFix(names))
	})
	// transformers' AutoConfig (models/auto/configuration_auto.py): "The
	// checkpoint you are trying to load has model type `glm4_moe_lite` but
	// Transformers does not recognize this architecture." (vllm#33580 on
	// vLLM 0.15.0).
	mtype := r(one("but Transformers does not recognize this architecture"), "has model type `([^`]*)` but Transformers does not recognize this architecture", func(c *ctx, m [][]byte) {
		c.noted = true
		c.fail(CodeTransformersType, fmt.Sprintf("the installed transformers does not know the checkpoint's model type %q: vLLM could not read its config.json", clip(string(m[1]), 80)), "")
	})
	return []rule{head, count, value, world, tpSize, arch, mtype}
}

// archNames reads the Python list's names ("'A', 'B'").
func archNames(list string) []string {
	var out []string
	for _, n := range strings.Split(list, ",") {
		n = strings.Trim(strings.TrimSpace(n), `'"`)
		if n != "" && len(out) < 4 {
			out = append(out, clip(n, 80))
		}
	}
	return out
}

// archFix names the first release known to register each architecture
// (vllm.ArchitectureRegisteredSince), or says that vlaunch's table does not know it.
func archFix(names []string) string {
	var known, unknown []string
	for _, n := range names {
		if v, src, ok := vllm.ArchitectureRegisteredSince(n); ok {
			known = append(known, fmt.Sprintf("vLLM %s or later registers %s (%s).", v, n, src))
		} else {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		known = append(known, fmt.Sprintf("vlaunch's release table does not know which vLLM release, if any, registers %s: look for it in the supported-models list of newer releases or in the model's own instructions.", strings.Join(unknown, ", ")))
	}
	return strings.Join(known, " ")
}
