package lint

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/vlaunch/vlaunch/lint/launch"
)

// kvTransfer is a server's --kv-transfer-config as vLLM reads it: one JSON
// object (KVTransferConfig, vllm@9dc49464:vllm/config/kv_transfer.py), or
// its keys given one by one as dotted flags (--kv-transfer-config.kv_role
// kv_both, vllm@026c83f9:docs/features/nixl_connector_usage.md), later
// flags overriding earlier ones as argparse does.
type kvTransfer struct {
	// Given is true when any --kv-transfer-config flag was given.
	Given bool
	// Parsed is true when the text is a JSON object (unresolved shell
	// values read as placeholders).
	Parsed bool
	// Known is true when every value was resolved.
	Known bool
	// At is the flag's value (or word, for dotted keys): where findings go.
	At launch.Value
	// Keys are the top-level keys set, with where each was written.
	Keys map[string]kvKey
	// Connector, Role and EngineID are kv_connector, kv_role and engine_id.
	Connector, Role, EngineID string
}

// kvKey is one top-level key of the config.
type kvKey struct {
	// Raw is the decoded JSON value.
	Raw interface{}
	// Pos is where the key is written.
	Pos launch.Pos
}

// str returns a key's value as text (JSON strings and numbers alike).
func (k kvTransfer) str(name string) (string, bool) {
	v, ok := k.Keys[name]
	if !ok {
		return "", false
	}
	switch x := v.Raw.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		if x {
			return "true", true
		}
		return "false", true
	}
	return "", false
}

// pos returns where a key is written (the flag's value when it is absent).
func (k kvTransfer) pos(name string) launch.Pos {
	if v, ok := k.Keys[name]; ok && v.Pos.Line > 0 {
		return v.Pos
	}
	return k.At.Pos
}

// KV parses the server's --kv-transfer-config once.
func (s *server) KV() kvTransfer {
	if s.kv == nil {
		k := parseKVTransfer(s)
		s.kv = &k
	}
	return *s.kv
}

// parseKVTransfer reads every --kv-transfer-config flag of a server.
func parseKVTransfer(s *server) kvTransfer {
	k := kvTransfer{Keys: map[string]kvKey{}, Known: true}
	for _, f := range s.Flags() {
		if f.Name != "kv-transfer-config" || f.OtherRelease || f.Value == nil {
			continue
		}
		k.Given = true
		k.Known = k.Known && f.Value.Known
		if sp := f.Spelling(); strings.Contains(sp, ".") {
			k.dotted(sp, f)
			continue
		}
		k.At = *f.Value
		obj, ok := decodeKVJSON(f.Value.Text)
		if !ok {
			continue
		}
		k.Parsed = true
		for name, raw := range obj {
			k.Keys[name] = kvKey{Raw: raw, Pos: keyPos(*f.Value, name)}
		}
	}
	k.Connector, _ = k.str("kv_connector")
	k.Role, _ = k.str("kv_role")
	k.EngineID, _ = k.str("engine_id")
	return k
}

// dotted records one key given as --kv-transfer-config.KEY VALUE (nested
// keys such as .kv_connector_extra_config.backends+ set only their parent).
func (k *kvTransfer) dotted(spelling string, f *cliFlag) {
	_, path, _ := strings.Cut(spelling, ".")
	top, _, nested := strings.Cut(path, ".")
	top = strings.TrimSuffix(top, "+")
	if k.At.Text == "" {
		k.At = f.At
	}
	k.Parsed = true
	if nested {
		if _, ok := k.Keys[top]; !ok {
			k.Keys[top] = kvKey{Raw: map[string]interface{}{}, Pos: f.At.Pos}
		}
		return
	}
	k.Keys[top] = kvKey{Raw: f.Value.Text, Pos: f.At.Pos}
}

// unresolvedJSON matches a shell expansion left in place of a JSON value
// ("enable_async_transfers":$ASYNC_TRANSFERS): read as null.
var unresolvedJSON = regexp.MustCompile(`:\s*(?:\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*)`)

// decodeKVJSON decodes the config's text; false when it is not a JSON
// object even with unresolved expansions read as null.
func decodeKVJSON(text string) (map[string]interface{}, bool) {
	if q := literalQuotes(strings.TrimSpace(text)); q != "" {
		// '{...}' with the quotes in the value: vLLM refuses it (VL103);
		// the object is still what the author meant, read for the P/D rules
		text = strings.TrimSpace(text)
		text = text[1 : len(text)-1]
	}
	for _, t := range []string{text, unresolvedJSON.ReplaceAllString(text, ":null")} {
		d := json.NewDecoder(strings.NewReader(t))
		d.UseNumber()
		var obj map[string]interface{}
		if err := d.Decode(&obj); err == nil && obj != nil {
			return obj, true
		}
	}
	return nil, false
}

// keyPos finds where a top-level key is written in the value's text.
func keyPos(v launch.Value, name string) launch.Pos {
	if i := strings.Index(v.Text, `"`+name+`"`); i >= 0 {
		return v.PosAt(i)
	}
	return v.Pos
}
