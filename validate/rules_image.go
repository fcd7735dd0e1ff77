package validate

import (
	"regexp"
	"strings"

	"github.com/vlaunch/vlaunch/vllm"
)

// imageRefRE is the image reference grammar of the OCI distribution
// reference package (github.com/distribution/reference, reference.go's
// grammar comment and regexp.go, v0.6.0), which docker and containerd
// parse `image` with:
//
//	reference        := name [ ":" tag ] [ "@" digest ]
//	name             := [domain '/'] remote-name
//	domain           := host [':' port-number]
//	host             := domain-name | IPv4address | \[ IPv6address \]
//	domain-component := /([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])/
//	path-component   := alpha-numeric [separator alpha-numeric]*
//	alpha-numeric    := /[a-z0-9]+/
//	separator        := /[_.]|__|[-]+/
//	tag              := /[\w][\w.-]{0,127}/
//	digest           := algorithm ":" /[0-9a-fA-F]{32,}/
//	algorithm        := /[A-Za-z][A-Za-z0-9]*/ ([+.-_] /[A-Za-z][A-Za-z0-9]*/)*
//
// Like the package, a first component is the domain only when a '/'
// follows it (the regular expression's optional domain group is tried
// first and gives way when the rest does not match).
var imageRefRE = func() *regexp.Regexp {
	const (
		domainComponent = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
		host            = `(?:` + domainComponent + `(?:\.` + domainComponent + `)*|\[[0-9a-fA-F:.]+\])`
		domain          = host + `(?::[0-9]+)?`
		alnum           = `[a-z0-9]+`
		separator       = `(?:[_.]|__|-+)`
		pathComponent   = alnum + `(?:` + separator + alnum + `)*`
		remoteName      = pathComponent + `(?:/` + pathComponent + `)*`
		tag             = `[\w][\w.-]{0,127}`
		digest          = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}`
	)
	return regexp.MustCompile(`^(?:` + domain + `/)?` + remoteName + `(?::` + tag + `)?(?:@` + digest + `)?$`)
}()

// imageRefMaxName is the package's RepositoryNameTotalLengthMax: the
// repository path (the name without its domain) is at most 255 characters.
const imageRefMaxName = 255

// imageRefOK reports whether s is an image reference docker can pull.
func imageRefOK(s string) bool {
	if !imageRefRE.MatchString(s) {
		return false
	}
	name, _, _ := strings.Cut(s, "@")
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
		name = name[:i] // the tag
	}
	// normalize.go's splitDockerDomain: a first component with '.', ':',
	// upper case or "localhost" is the registry.
	if first, rest, ok := strings.Cut(name, "/"); ok && (strings.ContainsAny(first, ".:[") || first == "localhost" || first != strings.ToLower(first)) {
		name = rest // the domain
	}
	return len(name) <= imageRefMaxName
}

// checkImage: a written runtime.image must be an image reference
// (imageRefOK), or docker and Kubernetes refuse to start the bundle
// ("invalid reference format"). A value holding a credential is
// checkSecrets' (reported there, masked), not repeated here.
func checkImage(c *checker) {
	img := c.d.Runtime.Image
	if img == "" || !c.written(p("runtime", "image")) || vllm.SecretValue(img) || !wordOK(img) || imageRefOK(img) {
		return
	}
	c.errorf(CodeValue, p("runtime", "image"),
		"write [registry[:port]/]name[:tag][@digest], e.g. vllm/vllm-openai:v0.11.0 or registry.example.com:5000/team/vllm:v0.11.0; "+
			"the repository name is lower case, and registry credentials belong in `docker login`, not in the reference",
		"runtime.image %q is not an image reference docker or Kubernetes can pull", img)
}
