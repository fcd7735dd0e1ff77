package resolve

import (
	"errors"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

func release(t *testing.T, v string) vllm.Release {
	t.Helper()
	r, _, err := vllm.ResolveString(v)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPlaceByRelease: Place refuses, as Unsupported at the field to change,
// a layout whose flags the release lacks (expert parallelism before 0.8.0,
// DP before 0.8.4, --nnodes only where the release has it), and gives the
// kind the generator writes.
func TestPlaceByRelease(t *testing.T) {
	four := []int{8, 8, 8, 8}
	tests := []struct {
		version string
		l       Layout
		path    string // "" = placeable
		kind    string
	}{
		{"0.7.3", Layout{TP: 8, PP: 1, DP: 1, EP: true}, "parallelism.expert", ""},
		{"0.7.3", Layout{TP: 8, PP: 1, DP: 1}, "", KindSingle},
		{"0.7.3", Layout{TP: 8, PP: 4, DP: 1}, "", KindRay},
		{"0.8.0", Layout{TP: 8, PP: 1, DP: 1, EP: true}, "", KindSingle},
		// DP from 0.8.3 (--data-parallel-size), across nodes from 0.9.0
		// (--data-parallel-size-local, -address, -rpc-port): read at the tags.
		{"0.8.2", Layout{TP: 4, PP: 1, DP: 2}, "parallelism.data", ""},
		{"0.8.3", Layout{TP: 4, PP: 1, DP: 2}, "", KindSingle},
		{"0.8.4", Layout{TP: 1, PP: 1, DP: 32, EP: true}, "parallelism", ""},
		{"0.9.0", Layout{TP: 1, PP: 1, DP: 32, EP: true}, "", KindDP},
		{"0.11.0", Layout{TP: 8, PP: 2, DP: 1}, "", KindRay},
		{"0.12.0", Layout{TP: 8, PP: 2, DP: 1}, "", KindNNodes},
	}
	for _, tt := range tests {
		p, err := Place(tt.l, four, release(t, tt.version))
		var fe *FieldError
		switch {
		case tt.path == "" && err != nil:
			t.Errorf("%s %+v: %v", tt.version, tt.l, err)
		case tt.path == "" && p.Kind != tt.kind:
			t.Errorf("%s %+v: kind %q, want %q", tt.version, tt.l, p.Kind, tt.kind)
		case tt.path != "" && (!errors.As(err, &fe) || fe.Path != tt.path || !fe.Unsupported):
			t.Errorf("%s %+v: error %v, want an unsupported one at %s", tt.version, tt.l, err, tt.path)
		case tt.path != "" && !strings.Contains(fe.Msg, "vLLM "+tt.version):
			t.Errorf("%s %+v: %q does not name the release", tt.version, tt.l, fe.Msg)
		}
	}
}

// TestPlaceArithmeticFirst: a layout the nodes cannot hold is a placement
// error, not the release's, even where the release also lacks its flags.
func TestPlaceArithmeticFirst(t *testing.T) {
	_, err := Place(Layout{TP: 1, PP: 1, DP: 64, EP: true}, []int{8, 8}, release(t, "0.7.3"))
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Unsupported || fe.Path != "parallelism.data" {
		t.Errorf("got %v", err)
	}
}
