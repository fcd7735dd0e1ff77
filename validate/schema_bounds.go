package validate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/xeipuuv/gojsonschema"
)

// boundErrors are the schema error types of a value outside a bound: true
// for an upper bound, false for a lower one.
var boundErrors = map[string]bool{
	"number_lte": true, "number_lt": true, "array_max_items": true, "string_lte": true, "array_max_properties": true,
	"number_gte": false, "number_gt": false, "array_min_items": false, "string_gte": false,
}

// boundMessage words a value outside a schema bound: the value (or its
// size), the bound, and, as the hint, why the bound is what it is (the
// "Limit:" sentence of the schema's description of the key).
func boundMessage(path string, segs []string, e gojsonschema.ResultError) (msg, hint string, ok bool) {
	above, ok := boundErrors[e.Type()]
	if !ok {
		return "", "", false
	}
	key := "max"
	if !above {
		key = "min"
	}
	limit := numberText(e.Details()[key])
	what, got := measured(e)
	switch {
	case above && what == "":
		msg = fmt.Sprintf("%s is %s, above the limit of %s", quoteKey(path), got, limit)
	case above:
		msg = fmt.Sprintf("%s has %s %s, more than the limit of %s", quoteKey(path), got, what, limit)
	case what == "" && strings.HasSuffix(e.Type(), "_gt"):
		msg = fmt.Sprintf("%s is %s; it must be greater than %s", quoteKey(path), got, limit)
	case what == "":
		msg = fmt.Sprintf("%s is %s, below the minimum of %s", quoteKey(path), got, limit)
	default:
		msg = fmt.Sprintf("%s has %s %s, fewer than the minimum of %s", quoteKey(path), got, what, limit)
	}
	if why := limitWhy(segs, e.Type() == "string_lte" || e.Type() == "string_gte"); why != "" {
		hint = "vlaunch's limit: " + why
	}
	return msg, hint, true
}

// measured says what a size bound counts ("items", "characters", "keys")
// and the value's size; for a number, "" and the number itself.
func measured(e gojsonschema.ResultError) (what, got string) {
	switch v := e.Value().(type) {
	case []interface{}:
		return "items", textfmt.Thousands(int64(len(v)))
	case string:
		return "characters", textfmt.Thousands(int64(len([]rune(v))))
	case map[string]interface{}:
		return "keys", textfmt.Thousands(int64(len(v)))
	}
	return "", numberText(e.Value())
}

// numberText renders a bound or a value without exponent notation for whole
// numbers (1000000 -> "1,000,000").
func numberText(v interface{}) string {
	s := fmt.Sprint(v)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return textfmt.Thousands(int64(f))
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// limitWhy is the reason the schema gives for a key's bounds: the text
// after "Limit:" in its description (or in that of the definition it
// refers to). For a string-or-object key, text asks for the string branch.
func limitWhy(segs []string, text bool) string {
	s := schemaAt(segs)
	if len(segs) > 0 && text {
		props, _ := schemaAt(segs[:len(segs)-1])["properties"].(jsonObj)
		prop, _ := props[segs[len(segs)-1]].(jsonObj)
		if ref, ok := prop["$ref"].(string); ok {
			defs, _ := schemaTree["definitions"].(jsonObj)
			prop, _ = defs[strings.TrimPrefix(ref, "#/definitions/")].(jsonObj)
		}
		if then, ok := prop["then"].(jsonObj); ok {
			s = then
		}
	}
	desc, _ := s["description"].(string)
	_, why, found := strings.Cut(desc, "Limit: ")
	if !found {
		return ""
	}
	return strings.TrimSpace(why)
}
