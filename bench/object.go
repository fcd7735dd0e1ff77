package bench

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
)

// object is one decoded JSON object with typed, strict accessors. Each
// accessor marks its key as read; the first problem is kept in err (with
// the key named) and later accessors are no-ops, so a parser reads its
// fields straight through and checks err once.
type object struct {
	fields map[string]json.RawMessage
	read   map[string]bool
	err    error
}

func newObject(raw json.RawMessage) (*object, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("not a JSON object")
	}
	return &object{fields: fields, read: map[string]bool{}}, nil
}

func (o *object) has(key string) bool {
	_, ok := o.fields[key]
	return ok
}

// isNull reports whether key is absent or null.
func (o *object) isNull(key string) bool {
	raw, ok := o.fields[key]
	return !ok || string(raw) == "null"
}

func (o *object) fail(key, format string, args ...any) {
	if o.err == nil {
		o.err = fmt.Errorf("%q: %s", key, fmt.Sprintf(format, args...))
	}
}

// raw returns a present, non-null value and marks the key read.
func (o *object) raw(key string) (json.RawMessage, bool) {
	o.read[key] = true
	if o.err != nil || o.isNull(key) {
		return nil, false
	}
	return o.fields[key], true
}

// num reads a finite number; absent or null gives ok false.
func (o *object) num(key string) (float64, bool) {
	raw, ok := o.raw(key)
	if !ok {
		return 0, false
	}
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil && (s == "NaN" || strings.HasSuffix(s, "Infinity")) {
			o.fail(key, "%s is not a finite number", s)
		} else {
			o.fail(key, "want a number, got %s", clip(raw))
		}
		return 0, false
	}
	return v, true
}

// need reads a finite number that must be present.
func (o *object) need(key string) float64 {
	v, ok := o.num(key)
	if !ok && o.err == nil {
		o.fail(key, "missing")
	}
	return v
}

// nonNeg reads an optional number that must not be negative.
func (o *object) nonNeg(key string) float64 {
	v, _ := o.num(key)
	if v < 0 {
		o.fail(key, "negative (%g)", v)
	}
	return v
}

// count reads an optional whole, non-negative number.
func (o *object) count(key string) (int, bool) {
	v, ok := o.num(key)
	if !ok {
		return 0, false
	}
	if v < 0 || v != math.Trunc(v) || v > maxCount {
		o.fail(key, "want a whole number between 0 and %.0f, got %g", maxCount, v)
		return 0, false
	}
	return int(v), true
}

// maxCount bounds request and token counts: far above any benchmark run
// (a billion requests), low enough that products of counts stay exact.
const maxCount = 1e9

// rate reads a request rate: a positive number, or unlimited (vLLM writes
// the string "inf", SGLang Python's Infinity). ok is false when absent.
func (o *object) rate(key string) (v float64, unlimited, ok bool) {
	raw, present := o.raw(key)
	if !present {
		return 0, false, false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "inf" || s == "Infinity" {
			return 0, true, true
		}
		if s == "trace" {
			return 0, false, false // the caller asks traced()
		}
		o.fail(key, "want a rate, inf or trace, got %q", s)
		return 0, false, false
	}
	if err := json.Unmarshal(raw, &v); err != nil || !(v > 0) {
		o.fail(key, "want a positive rate or inf, got %s", clip(raw))
		return 0, false, false
	}
	return v, false, true
}

// traced reports whether key holds the string "trace": SGLang's
// bench_serving writes it as the request rate of a run that replays a
// trace's timestamps (--use-trace-timestamps; python/sglang/bench_serving.py
// result dict, "request_rate": "trace" if use_trace_timestamps).
func (o *object) traced(key string) bool {
	var s string
	raw, ok := o.fields[key]
	return ok && json.Unmarshal(raw, &s) == nil && s == "trace"
}

// str reads an optional string.
func (o *object) str(key string) string {
	raw, ok := o.raw(key)
	if !ok {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		o.fail(key, "want a string, got %s", clip(raw))
	}
	return s
}

// sub reads a nested object (required when need is true).
func (o *object) sub(key string, need bool) *object {
	raw, ok := o.raw(key)
	if !ok {
		if need {
			o.fail(key, "missing")
		}
		return nil
	}
	s, err := newObject(raw)
	if err != nil {
		o.fail(key, "%v", err)
		return nil
	}
	return s
}

// statKey matches the latency statistics both clients write:
// mean_ttft_ms, median_tpot_ms, std_itl_ms, p99_e2el_ms, p99.9_ttft_ms.
var statKey = regexp.MustCompile(`^(mean|median|std|p[0-9]+(?:\.[0-9]+)?)_([a-z0-9_]+)_ms$`)

// stats reads every statistic of the metrics named in want (metric key
// part → Stat pointer); a key shaped like a statistic of a metric it does
// not know is an error, so a misspelt statistic cannot vanish.
func (o *object) stats(want map[string]*Stat, known map[string]bool) {
	for _, key := range o.sortedKeys() {
		m := statKey.FindStringSubmatch(key)
		if m == nil {
			continue
		}
		stat, metric := m[1], m[2]
		dst, ok := want[metric]
		if !ok {
			if !known[metric] {
				o.fail(key, "a statistic of an unknown metric %q", metric)
			}
			o.read[key] = true
			continue
		}
		if strings.HasPrefix(stat, "p") && !validPercentile(stat) {
			o.fail(key, "percentile %s is outside (0, 100]", stat[1:])
		}
		v, present := o.num(key)
		if !present || o.err != nil {
			continue
		}
		if v < 0 {
			o.fail(key, "negative latency %g", v)
			continue
		}
		if *dst == nil {
			*dst = Stat{}
		}
		(*dst)[stat] = v
	}
}

func validPercentile(stat string) bool {
	var p float64
	_, err := fmt.Sscanf(stat[1:], "%g", &p)
	return err == nil && p > 0 && p <= 100
}

func (o *object) sortedKeys() []string {
	keys := make([]string, 0, len(o.fields))
	for k := range o.fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// unread lists the keys no accessor read.
func (o *object) unread() []string {
	var out []string
	for _, k := range o.sortedKeys() {
		if !o.read[k] {
			out = append(out, k)
		}
	}
	return out
}

// clip shortens a raw value for messages.
func clip(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
