package bench

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vlaunch/vlaunch/internal/inputfile"
)

// MaxBytes bounds one result file: a --save-detailed vLLM result of 1,000
// requests of 1,000 tokens with their inter-token latencies is about 20 MiB;
// more is not a result file.
const MaxBytes = 64 << 20

// MaxRecords bounds the results one file may hold (JSONL lines, GuideLLM
// benchmarks).
const MaxRecords = 1000

// Parse reads every result in data: one JSON object, objects one per line
// (vLLM --append-result, SGLang --output-file), or a GuideLLM report. The
// format is recognised per object. source names the file in results and
// errors.
func Parse(source string, data []byte) ([]Result, error) {
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("%s: %s, more than the %s a result file may have", source, inputfile.Size(int64(len(data))), inputfile.Size(MaxBytes))
	}
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	// A UTF-8 byte order mark (Windows editors, PowerShell's Out-File)
	// is no JSON value: it is dropped, as encoding/json would not.
	data = bytes.TrimPrefix(data, utf8BOM)
	if isSummary(data) {
		rs, err := parseSummaries(source, data)
		for i := range rs {
			rs[i].FileSHA256 = digest
		}
		return rs, err
	}
	if bytes.Contains(data, []byte("NaN")) || bytes.Contains(data, []byte("Infinity")) {
		data = sanitize(data)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []Result
	n := 0
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: record %d: not JSON: %v", source, n+1, err)
		}
		// A list of results is read element by element: `vllm bench sweep
		// serve` writes each combination's runs to summary.json as a list
		// of `vllm bench serve` results (vllm/benchmarks/sweep/serve.py,
		// run_comb, commit 0031557f).
		records := []json.RawMessage{raw}
		if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
			if err := json.Unmarshal(raw, &records); err != nil {
				return nil, fmt.Errorf("%s: record %d: %v", source, n+1, err)
			}
			if len(records) > MaxRecords {
				return nil, fmt.Errorf("%s: more than %d results", source, MaxRecords)
			}
		}
		for _, rec := range records {
			n++
			rs, err := parseRecord(rec)
			if err != nil {
				return nil, fmt.Errorf("%s: record %d: %w", source, n, err)
			}
			out = append(out, rs...)
			if len(out) > MaxRecords {
				return nil, fmt.Errorf("%s: more than %d results", source, MaxRecords)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no benchmark result in the file", source)
	}
	for i := range out {
		out[i].Source, out[i].Record, out[i].Records, out[i].FileSHA256 = source, i+1, len(out), digest
	}
	return out, nil
}

// parseRecord recognises one top-level object's format and reads it.
func parseRecord(raw json.RawMessage) ([]Result, error) {
	o, err := newObject(raw)
	if err != nil {
		return nil, err
	}
	switch {
	case o.has("benchmarks"):
		return parseGuideLLM(o)
	case isInferencePerf(o):
		r, err := parseInferencePerf(o)
		return []Result{r}, err
	case isLLMPerf(o):
		r, err := parseLLMPerf(o)
		return []Result{r}, err
	case isNVExport(o):
		r, err := parseNVExport(o)
		return []Result{r}, err
	case o.has("aiperf_version"):
		return nil, nvOtherExport(o)
	case o.has("total_output_tokens_retokenized") || o.has("mean_e2e_latency_ms") || o.has("accept_length"):
		r, err := parseSGLang(o)
		return []Result{r}, err
	case o.has("duration") && o.has("completed"):
		r, err := parseVLLM(o)
		return []Result{r}, err
	}
	return nil, fmt.Errorf("not a result of a client vlaunch reads (%s); it reads %s", keysText(o), strings.Join(formats, ", "))
}

var formats = []string{string(FormatVLLM), string(FormatVLLMScript), string(FormatSGLang), string(FormatGuideLLM),
	string(FormatAIPerf), string(FormatGenAIPerf), string(FormatInferencePerf),
	string(FormatLLMPerf)}

// keysText names a few of an object's keys for messages.
func keysText(o *object) string {
	keys := o.sortedKeys()
	if len(keys) == 0 {
		return "an empty object"
	}
	for i := range keys {
		keys[i] = clipText(keys[i])
	}
	if len(keys) > 5 {
		keys = append(keys[:5], "…")
	}
	return "keys " + strings.Join(keys, ", ")
}

// jsonString decodes raw into s when it is a JSON string.
func jsonString(raw json.RawMessage, s *string) bool {
	return json.Unmarshal(raw, s) == nil
}

// utf8BOM is the UTF-8 encoding of U+FEFF at the start of a file.
var utf8BOM = []byte("\xef\xbb\xbf")
