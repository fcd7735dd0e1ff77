package main

import (
	"runtime/debug"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3" (a
// release build); empty, it comes from the build information Go records
// (versionString).
var version = ""

// versionString is what `vlaunch --version` prints: the -ldflags version;
// else the module version `go install ...@v1.2.3` records; else, for a
// build from a checkout, the VCS revision Go stamps into the binary (and
// whether the tree had local changes); "unknown" when the binary carries
// none of them (go test, go run of a copied file).
func versionString() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	return fromBuildInfo(info)
}

// fromBuildInfo formats build information: "v1.2.3", or
// "devel 0123456789ab (2026-12-02T15:04:05Z, modified)".
func fromBuildInfo(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	rev := settings["vcs.revision"]
	if rev == "" {
		return "unknown (built without version control information)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	var extra []string
	if t := settings["vcs.time"]; t != "" {
		extra = append(extra, t)
	}
	if settings["vcs.modified"] == "true" {
		extra = append(extra, "modified")
	}
	out := "devel " + rev
	if len(extra) > 0 {
		out += " (" + strings.Join(extra, ", ") + ")"
	}
	return out
}
