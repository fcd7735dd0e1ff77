package launch

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
)

// LaunchFile reports whether a file found inside a directory given to
// `vlaunch lint` is a launch configuration worth linting: a shell script
// (.sh, .bash, a Slurm batch script's .sbatch or .slurm, or no extension
// and a shebang naming a shell), a YAML
// manifest or Compose file, or a Markdown document. head is the file's
// first bytes (only read for a name without an extension). Everything else
// a deployment directory holds — code, data, the bundle's hosts table,
// binaries — is skipped; a file named on the command line is linted
// whatever its name, so this rule only decides what a directory contributes.
// A vlaunch bundle's hosts table (BundleHostsTable) is data but is taken
// too: lint reads the bundle's cluster from it (VL231's Ray GPUs), and
// Parse skips it as data, so it adds no launch of its own.
func LaunchFile(name string, head []byte) bool {
	if BundleHostsTable(name, head) {
		return true
	}
	if DataFile(name) {
		return false
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".sh", ".bash", ".yaml", ".yml", ".sbatch", ".slurm":
		return true // .sbatch, .slurm: Slurm batch scripts
	case "":
		return shellShebang(head)
	}
	return Markdown(name)
}

// shellShebang reports a first line like "#!/bin/bash" or
// "#!/usr/bin/env bash" naming sh, bash, dash, ksh or zsh.
func shellShebang(head []byte) bool {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return false
	}
	line, _, _ := bytes.Cut(head[2:], []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return false
	}
	prog := filepath.Base(fields[0])
	if prog == "env" { // #!/usr/bin/env [-S] [VAR=x] bash
		prog = ""
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
				prog = filepath.Base(f)
				break
			}
		}
	}
	switch prog {
	case "sh", "bash", "dash", "ksh", "zsh":
		return true
	}
	return false
}

// bundleHostsHead is the first two lines templates/hosts.tmpl writes: the
// title "# NAME: nodes, addresses and roles (vLLM VERSION, layout LAYOUT[,
// N independent replicas])" and the tab-separated column header.
var bundleHostsHead = regexp.MustCompile("^# [^\n]+: nodes, addresses and roles \\(vLLM [^,\n]+, layout [a-z0-9-]+(, [0-9]+ independent replicas)?\\)\r?\n" +
	"# node\taddress\tgpus\trole\tdp_ranks\tscript(\treplica)?\r?\n")

// BundleHostsTable reports a vlaunch bundle's `hosts` table: a file named
// hosts whose first bytes (head) are the two lines the generator writes at
// its top (templates/hosts.tmpl). Another file named hosts (/etc/hosts, a
// hand-written inventory) is not one.
func BundleHostsTable(name string, head []byte) bool {
	return filepath.Base(name) == "hosts" && bundleHostsHead.Match(head)
}
