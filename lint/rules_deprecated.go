package lint

// checkDeprecated notes flags and variables the release still accepts but
// warns about, because a later release removes them (VL126).
func checkDeprecated(p *Pass) {
	for _, s := range p.Servers {
		for _, f := range s.Flags() {
			if f.Spec != nil && !f.Spec.Deprecated.IsZero() && s.Rel.Version.AtLeast(f.Spec.Deprecated) {
				p.ReportAt(s.Inv, f.At.Pos, f.Spec.Doc, "%s is deprecated since vLLM %s", f.Spelling(), f.Spec.Deprecated)
			}
		}
		for _, e := range s.Inv.Env {
			spec, ok := s.Rel.Env(e.Name)
			if ok && !spec.Deprecated.IsZero() && s.Rel.Version.AtLeast(spec.Deprecated) {
				p.ReportAt(s.Inv, e.Pos, spec.Doc, "%s is deprecated since vLLM %s", e.Name, spec.Deprecated)
			}
		}
	}
}
