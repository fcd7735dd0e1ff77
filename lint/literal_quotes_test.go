package lint

import "testing"

// TestLiteralQuotes: a JSON object wrapped in quote characters that are
// part of the value (a variable expanded unquoted keeps them) is named, so
// VL103 reports it and the P/D rules still read the object (decodeKVJSON).
func TestLiteralQuotes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`'{"kv_role":"kv_both"}'`, "single-quote"},
		{`"{"kv_role":"kv_both"}"`, "double-quote"},
		{`{"kv_role":"kv_both"}`, ""},
		{`'{"kv_role":"kv_both"}`, ""}, // unbalanced: not this defect
		{`'{not json}'`, ""},
		{`''`, ""},
	} {
		if got := literalQuotes(tc.in); got != tc.want {
			t.Errorf("literalQuotes(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
	obj, ok := decodeKVJSON(`'{"kv_connector":"NixlConnector","kv_role":"kv_both"}'`)
	if !ok || obj["kv_role"] != "kv_both" {
		t.Errorf("decodeKVJSON of a quoted object = %v, %v; want the object", obj, ok)
	}
}
