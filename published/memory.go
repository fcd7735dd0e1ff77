package published

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// MemoryCase is the citation part of one vLLM start-up memory case; the
// estimator decodes the full case (layout, settings, measured values) from
// MemoryLogsYAML with its own types.
type MemoryCase struct {
	ID     string `yaml:"id"`
	Source struct {
		Repo string `yaml:"repo"`
		Ref  string `yaml:"ref"`
		URL  string `yaml:"url"`
	} `yaml:"source"`
}

// MemoryCases lists the embedded memory cases with their citations.
func MemoryCases() ([]MemoryCase, error) {
	var doc struct {
		Cases []MemoryCase `yaml:"cases"`
	}
	if err := yaml.Unmarshal(memoryLogsYAML, &doc); err != nil {
		return nil, fmt.Errorf("vllm-memory-logs.yaml: %w", err)
	}
	return doc.Cases, nil
}
