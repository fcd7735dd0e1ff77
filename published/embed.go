package published

import (
	_ "embed"
	"sync"
)

//go:embed throughput.yaml
var throughputYAML []byte

//go:embed anchors.yaml
var anchorsYAML []byte

//go:embed vllm-memory-logs.yaml
var memoryLogsYAML []byte

// ThroughputYAML returns a copy of the embedded throughput data file.
func ThroughputYAML() []byte { return append([]byte(nil), throughputYAML...) }

// MemoryLogsYAML returns a copy of the embedded vLLM start-up memory cases
// (the format is described in the file's header).
func MemoryLogsYAML() []byte { return append([]byte(nil), memoryLogsYAML...) }

var (
	loadOnce sync.Once
	loaded   *Set
	loadErr  error
)

// Throughput parses and validates the embedded throughput data once; every
// caller shares the result, which it must not modify.
func Throughput() (*Set, error) {
	loadOnce.Do(func() {
		loaded, loadErr = Parse(throughputYAML)
		if loadErr == nil {
			loadErr = loaded.Validate()
		}
	})
	return loaded, loadErr
}
