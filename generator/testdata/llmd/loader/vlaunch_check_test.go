package runner

import (
	"context"
	"os"
	"testing"

	"github.com/llm-d/llm-d-router/pkg/common/observability/logging"
	"github.com/llm-d/llm-d-router/pkg/epp/config/loader"
	testutils "github.com/llm-d/llm-d-router/test/utils"
)

// Loads vlaunch's EndpointPickerConfig through the scheduler's own loader,
// with the in-tree plugins the EPP binary registers.
func TestVlaunchPDConfig(t *testing.T) {
	NewRunner().registerInTreePlugins()
	data, err := os.ReadFile(os.Getenv("VLAUNCH_EPP_CONFIG"))
	if err != nil {
		t.Fatal(err)
	}
	logger := logging.NewTestLogger()
	raw, _, err := loader.LoadRawConfig(data, logger)
	if err != nil {
		t.Fatalf("LoadRawConfig: %v", err)
	}
	cfg, err := loader.InstantiateAndConfigure(raw, testutils.NewTestHandle(context.Background()), logger)
	if err != nil {
		t.Fatalf("InstantiateAndConfigure: %v", err)
	}
	t.Logf("scheduler config: %+v", cfg.SchedulerConfig)
}
