package generator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"

	"github.com/vlaunch/vlaunch/templates"
)

// File is one generated file, relative to the bundle directory.
type File struct {
	Path string
	Mode fs.FileMode
	Data []byte
}

// templateData is what every template sees.
type templateData struct {
	Plan *Plan
	Node *NodePlan
	// PD is the disaggregated bundle's plan, for its top-level files (nil
	// otherwise).
	PD *PDPlan
}

// unsafeSprig lists sprig functions removed from templates: environment
// access and everything whose output depends on time, randomness or the
// network, which would make output non-deterministic.
var unsafeSprig = []string{"env", "expandenv", "now", "ago", "date", "dateInZone", "date_in_zone", "dateModify",
	"date_modify", "mustDateModify", "must_date_modify", "htmlDate", "htmlDateInZone", "toDate", "mustToDate",
	"unixEpoch", "duration", "durationRound", "randAlphaNum", "randAlpha", "randAscii", "randNumeric", "randBytes",
	"randInt", "uuidv4", "shuffle", "genPrivateKey", "derivePassword", "genCA", "genCAWithKey", "genSelfSignedCert",
	"genSelfSignedCertWithKey", "genSignedCert", "genSignedCertWithKey", "buildCustomCert", "encryptAES", "decryptAES",
	"bcrypt", "htpasswd", "getHostByName"}

// FuncMap is the function set templates get (see package templates).
func FuncMap() template.FuncMap {
	fm := sprig.TxtFuncMap()
	for _, name := range unsafeSprig {
		delete(fm, name)
	}
	fm["shq"] = shq
	fm["shwords"] = func(args []Arg) (string, error) { return shellWords(args, "  ") }
	fm["script"] = script
	fm["yq"] = yq
	fm["kq"] = func(s string) string { return yq(kubeEscape(s)) }
	fm["oneline"] = oneLine
	fm["mounts"] = dockerMounts
	fm["hfCache"] = hfCacheMount
	fm["rayPort"] = func() int { return RayPort }
	fm["masterPort"] = func() int { return MasterPort }
	fm["k8sQuantity"] = k8sQuantity
	fm["portRange"] = portRange
	return fm
}

// yq renders a YAML double-quoted scalar (JSON strings are valid YAML).
func yq(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep '<', '>' and '&' readable in scripts
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// loader reads a template from the override directory when it has the
// file (templates.Overrides: known names only, none empty), else from the
// embedded defaults.
type loader struct {
	dir  string
	over map[string][]byte
}

func (l loader) load(name string) (display string, text []byte, err error) {
	if data, ok := l.over[name]; ok {
		return filepath.Join(l.dir, filepath.FromSlash(name)), data, nil
	}
	data, err := templates.FS.ReadFile(name)
	return "templates/" + name, data, err
}

// render executes one template; errors carry the template's file:line.
func (l loader) render(name string, data templateData) ([]byte, error) {
	display, text, err := l.load(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", display, err)
	}
	t, err := template.New(display).Option("missingkey=error").Funcs(FuncMap()).Parse(string(text))
	if err != nil {
		return nil, templateErr(display, err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return nil, templateErr(display, err)
	}
	return buf.Bytes(), nil
}

// templateErr turns "template: NAME:12:3: msg" into "NAME:12:3: msg" so the
// location reads like a compiler error.
func templateErr(display string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "template: ")
	if !strings.HasPrefix(msg, display) {
		msg = display + ": " + msg
	}
	return fmt.Errorf("%s", msg)
}

// dockerMounts lists -v arguments: the model directory read-only when the
// model is a local path (or the spec's model_mount), and the Hugging Face
// cache when cache_dir is set (hfCacheMount mounts the host's own cache
// for a hub model otherwise).
func dockerMounts(p *Plan) []string {
	var out []string
	switch {
	case p.Docker.ModelMount != "":
		m := p.Docker.ModelMount
		if !strings.Contains(m, ":") {
			m = m + ":" + m
		}
		out = append(out, m+":ro")
	case strings.HasPrefix(p.Model, "/"):
		out = append(out, p.Model+":"+p.Model+":ro")
	}
	if p.Docker.CacheDir != "" {
		out = append(out, p.Docker.CacheDir+":"+containerHFCache)
	}
	return out
}

// hostHFCache is the host's Hugging Face cache as huggingface_hub places
// it (HF_HOME, else ~/.cache/huggingface), expanded by the node script's
// shell when it runs; containerHFCache is the vLLM image's (it runs as
// root with HF_HOME unset).
const (
	hostHFCache      = `"${HF_HOME:-$HOME/.cache/huggingface}"`
	containerHFCache = "/root/.cache/huggingface"
)

// hfCacheMount is the -v argument (shell text, the host side expanded when
// the script runs) that gives a container the host's Hugging Face cache
// when vLLM loads a checkpoint from the hub: without it every `docker run
// --rm` downloads the checkpoint again (#27). "" for other runtimes, when
// the checkpoints are paths on the hosts, and when runtime.docker.cache_dir
// is set:
// dockerMounts mounts that directory instead (templates that predate this
// function keep it).
func hfCacheMount(p *Plan) string {
	if p.Runtime != "docker" || p.Docker.CacheDir != "" || !p.fromHub() {
		return ""
	}
	return hostHFCache + ":" + containerHFCache
}

// fromHub reports whether vLLM loads a checkpoint by Hugging Face hub id:
// the model, or the speculative draft, is not a path ("/…", "./…", "~…").
func (p *Plan) fromHub() bool {
	if hubID(p.Model) {
		return true
	}
	s := p.Deployment.Engine.Speculative
	return s != nil && hubID(s.DraftPath)
}

func hubID(name string) bool {
	return name != "" && !strings.HasPrefix(name, "/") && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "~")
}

// Rest is the command's arguments after the program (for Docker's entrypoint split).
func (s Step) Rest() []Arg {
	if len(s.Args) == 0 {
		return nil
	}
	return s.Args[1:]
}

// Program is the command's first word.
func (s Step) Program() string {
	if len(s.Args) == 0 {
		return ""
	}
	return s.Args[0].Text
}

// Render produces the bundle's files from the plan, sorted by path.
func Render(p *Plan, templatesDir string) ([]File, error) {
	l := loader{dir: templatesDir}
	if templatesDir != "" {
		over, err := templates.Overrides(templatesDir)
		if err != nil {
			return nil, fmt.Errorf("--templates: %w", err)
		}
		l.over = over
	}
	files := []File{markerFile(p)}
	add := func(path, tmpl string, mode fs.FileMode, n *NodePlan) error {
		data, err := l.render(tmpl, templateData{Plan: p, Node: n})
		if err != nil {
			return err
		}
		files = append(files, File{Path: path, Mode: mode, Data: data})
		return nil
	}
	if err := add("README.md", readmeTemplate(p), 0o644, nil); err != nil {
		return nil, err
	}
	if err := add("hosts", "hosts.tmpl", 0o644, nil); err != nil {
		return nil, err
	}
	if p.Runtime == "kubernetes" {
		if err := add("lws.yaml", "kubernetes/lws.yaml.tmpl", 0o644, nil); err != nil {
			return nil, err
		}
	}
	for _, n := range p.scriptNodes() {
		if err := add(n.ScriptName, p.Runtime+"/node.sh.tmpl", 0o755, n); err != nil {
			return nil, err
		}
		// A multi-step container command runs the bare script inside the
		// container, as a file rather than a bash -c string, so that it
		// stays readable and every checker sees it.
		if n.ContainerScript != "" {
			if err := add(n.ContainerScript, "bare/node.sh.tmpl", 0o755, n); err != nil {
				return nil, err
			}
		}
	}
	if err := addRouterFiles(p, add); err != nil {
		return nil, err
	}
	sortFiles(files)
	return files, nil
}

// scriptNodes are the nodes that get a script of their own (none on
// Kubernetes, where lws.yaml starts every pod).
func (p *Plan) scriptNodes() []*NodePlan {
	if p.Runtime == "kubernetes" {
		return nil
	}
	return p.activeNodes()
}

// markerFile marks the directory as a bundle (see MarkerFile). It is not a
// template: overriding templates must not be able to drop it.
func markerFile(p *Plan) File {
	text := fmt.Sprintf("vlaunch launch bundle %q for vLLM %s (%s runtime).\n"+
		"`vlaunch generate --force` replaces a non-empty directory only when this file is in it;\n"+
		"delete this file to protect the directory from --force.\n", oneLine(p.Name), p.Release.Version, p.Runtime)
	return File{Path: MarkerFile, Mode: 0o644, Data: []byte(text)}
}
