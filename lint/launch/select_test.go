package launch

import "testing"

func TestLaunchFile(t *testing.T) {
	for _, tc := range []struct {
		name, head string
		want       bool
	}{
		{"node0.sh", "", true},
		{"start.BASH", "", true},
		{"lws.yaml", "", true},
		{"compose.yml", "", true},
		{"README.md", "", true},
		{"recipe.markdown", "", true},
		{"hosts", "#!/bin/bash\n", false}, // the bundle's hosts table is data
		{".vlaunch-bundle", "", false},
		{"config.json", "", false},
		{"serve.py", "", false},
		{"notes.txt", "", false},
		{"model.safetensors", "", false},
		{"start", "#!/bin/bash\nvllm serve m\n", true},
		{"start", "#!/usr/bin/env bash\n", true},
		{"start", "#!/usr/bin/env -S bash -e\n", true},
		{"start", "#!/usr/bin/env LC_ALL=C sh\n", true},
		{"start", "#!/usr/bin/env\n", false},
		{"start", "#! /bin/sh\n", true},
		{"run", "#!/usr/bin/env python3\n", false},
		{"run", "vllm serve m\n", false}, // no shebang: name it on the command line
		{"Makefile", "", false},
		{"run", "#!", false},
	} {
		if got := LaunchFile(tc.name, []byte(tc.head)); got != tc.want {
			t.Errorf("LaunchFile(%q, %q) = %v, want %v", tc.name, tc.head, got, tc.want)
		}
	}
}
