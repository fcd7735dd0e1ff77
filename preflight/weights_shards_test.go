package preflight

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// TestMissingWeightsSaySo: qa39 finding 3. A model directory with
// config.json and no weights said "0 safetensors files, 0 MiB … the
// checkpoint is smaller than the model needs … or a smaller
// model/quantization"; one shard of four without an index said the same
// ("1 safetensors files"). The counts here are by hand from the names: the
// directory holds model-00001-of-00004, so 00002, 00003 and 00004 are
// missing; the index below lists three files of which one is on disk.
func TestMissingWeightsSaySo(t *testing.T) {
	cfg, err := fs.ReadFile(fixtureHost(t, "h20-roce").FS, "models/DeepSeek-V3/config.json")
	if err != nil {
		t.Fatal(err)
	}
	const dir = "models/DeepSeek-V3/"
	files := fstest.MapFS{dir + "config.json": {Data: cfg}}
	r := runMap(t, files, nil, "model.size")
	wantResult(t, r, Fail, "no weights found (no *.safetensors, no model.safetensors.index.json)")
	if strings.Contains(r.Fix, "smaller model") {
		t.Errorf("no weights at all blamed on a smaller model: %q", r.Fix)
	}

	files[dir+"model-00001-of-00004.safetensors"] = &fstest.MapFile{Data: make([]byte, 100)}
	wantResult(t, runMap(t, files, nil, "model.size"), Fail, "3 of 4 shards are missing",
		"model-00002-of-00004.safetensors, model-00003-of-00004.safetensors, model-00004-of-00004.safetensors")

	files[dir+"model.safetensors.index.json"] = &fstest.MapFile{Data: []byte(`{"metadata": {"total_size": 300},
		"weight_map": {"a": "model-00001-of-00004.safetensors", "b": "model-00001-of-00004.safetensors",
		"c": "part-b.safetensors", "d": "part-c.safetensors"}}`)}
	r = runMap(t, files, nil, "model.size")
	wantResult(t, r, Fail, "2 of 3 shards model.safetensors.index.json lists are missing: part-b.safetensors, part-c.safetensors")
	if strings.Contains(r.Found, "model-00002-of-00004") {
		t.Errorf("with an index, the names' count must not be used: %q", r.Found)
	}
}
