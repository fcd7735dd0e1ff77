package validate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
)

type jsonObj = map[string]interface{}

// resolveSchema follows $ref and takes the object branch ("else") of the
// string-or-object unions, which is where keys live.
func resolveSchema(s jsonObj) jsonObj {
	for i := 0; s != nil && i < 16; i++ {
		if ref, ok := s["$ref"].(string); ok {
			defs, _ := schemaTree["definitions"].(jsonObj)
			s, _ = defs[strings.TrimPrefix(ref, "#/definitions/")].(jsonObj)
			continue
		}
		if e, ok := s["else"].(jsonObj); ok {
			s = e
			continue
		}
		return s
	}
	return s
}

// schemaAt walks the schema along a document path.
func schemaAt(segs []string) jsonObj {
	loadSchema()
	s := resolveSchema(schemaTree)
	for _, seg := range segs {
		if props, ok := s["properties"].(jsonObj); ok {
			if sub, ok := props[seg].(jsonObj); ok {
				s = resolveSchema(sub)
				continue
			}
		}
		if items, ok := s["items"].(jsonObj); ok {
			s = resolveSchema(items)
			continue
		}
		if ap, ok := s["additionalProperties"].(jsonObj); ok {
			s = resolveSchema(ap)
			continue
		}
		return nil
	}
	return s
}

// allowedKeys lists the keys the schema allows in the object at segs.
func allowedKeys(segs []string) []string {
	props, _ := schemaAt(segs)["properties"].(jsonObj)
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// suggest returns a "did you mean" hint for got among candidates, or "".
func suggest(got string, candidates []string) string {
	s := catalog.Suggest(got, candidates)
	if len(s) == 0 {
		return ""
	}
	q := make([]string, len(s))
	for i, c := range s {
		q[i] = fmt.Sprintf("%q", c)
	}
	return "did you mean " + strings.Join(q, " or ") + "?"
}
