package vllm

import (
	"regexp"
	"sort"
	"strings"
)

// secretNameRE matches variable names that hold credentials by convention
// (HF_TOKEN, AWS_SECRET_ACCESS_KEY, WANDB_API_KEY, DB_PASSWORD, ...): a
// credential word between underscores or the ends of the name, so that
// MAX_TOKENS or TOKENIZER_PATH are not taken for secrets.
var secretNameRE = regexp.MustCompile(`(?i)(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)($|_)`)

// secretFlags maps the `vllm serve` options whose value is a credential to
// the variable the same credential is read from instead, so a launch file
// never needs the value. It is the one list validate, generate and lint
// read (SecretFlag, SecretArgs):
//   - --api-key: the key clients must present. api_server.py uses
//     `args.api_key or envs.VLLM_API_KEY`; both since 0.9.0 (see the flag
//     and env tables). One value up to 0.9.x (v0.9.0
//     entrypoints/openai/cli_args.py:113, type str); a list at v0.24.0
//     (cli_args.py:265, `api_key: list[str] | None`, so nargs "+").
//   - --hf-token: the bearer token for Hugging Face downloads, since 0.8.4
//     (PR #16093; v0.8.4 engine/arg_utils.py, v0.24.0 arg_utils.py:850 from
//     ModelConfig.hf_token, config/model.py:270). Its value is optional:
//     `bool | str | None` gives nargs "?" and const True (v0.24.0
//     arg_utils.py:340-344), and a bare --hf-token uses the token `hf auth
//     login` stored, no credential in the file. Left unset, huggingface_hub
//     reads HF_TOKEN from the environment, which every bundle passes through
//     (Docker `-e HF_TOKEN`, Kubernetes a secretKeyRef).
//
// No other option of `vllm serve` at v0.24.0 takes a credential: the other
// key/token-named options (--ssl-keyfile, --allow-credentials,
// --long-prefill-token-threshold, ...) take paths, switches and numbers. A
// credential inside any other value (a URL's password, a token) is found by
// FindSecrets.
var secretFlags = map[string]string{"api-key": "VLLM_API_KEY", "hf-token": "HF_TOKEN"}

// SecretEnv reports whether an environment variable holds a credential:
// a variable the env table marks Secret, or a name with a credential word.
// This is the one rule validate, generate and lint apply to variables.
func SecretEnv(name string) bool {
	if e, ok := KnownEnvEver(name); ok && e.Secret {
		return true
	}
	return secretNameRE.MatchString(name)
}

// SecretFlag reports whether a command-line word names an option whose
// value is a credential ("--api-key", "--api_key", "--hf-token=..."), and
// returns the variable that supplies the credential instead.
func SecretFlag(word string) (envVar string, ok bool) {
	if !strings.HasPrefix(word, "--") {
		return "", false
	}
	long, _ := splitFlag(word)
	envVar, ok = secretFlags[long]
	return envVar, ok
}

// A SecretArg is a credential given to an option in an argument list.
type SecretArg struct {
	Flag  int    // the option's word
	Value int    // the word holding the credential: Flag for "--opt=VALUE"
	Name  string // the option as written, without "=VALUE"
	Env   string // the variable that supplies the credential instead
}

// SecretArgs finds the options of args (vllm.extra_args, a command's
// words) that are given a credential: "--opt=VALUE", or "--opt VALUE" with
// the value the next word that is not an option. An option standing alone
// carries none: --hf-token then uses the stored login, and --api-key
// without its value is argparse's error (the extra_args rules report it).
func SecretArgs(args []string) []SecretArg {
	var out []SecretArg
	for i, a := range args {
		env, ok := SecretFlag(a)
		if !ok {
			continue
		}
		name, v, glued := strings.Cut(a, "=")
		switch {
		case glued && v != "":
			out = append(out, SecretArg{Flag: i, Value: i, Name: name, Env: env})
		case !glued && i+1 < len(args) && args[i+1] != "" && !strings.HasPrefix(args[i+1], "-"):
			out = append(out, SecretArg{Flag: i, Value: i + 1, Name: name, Env: env})
		}
	}
	return out
}

// SecretArgWord reports whether args[i] is a secret option given a
// credential or the credential itself (SecretArgs): a checker that reports
// those by the option does not report the same word again by its content.
func SecretArgWord(args []string, i int) bool {
	for _, s := range SecretArgs(args) {
		if i == s.Flag || i == s.Value {
			return true
		}
	}
	return false
}

// SecretValue reports whether a value holds a recognisable credential
// anywhere in it (FindSecrets): a token, or a URL with a password.
func SecretValue(v string) bool { return len(FindSecrets(v)) > 0 }

// A Secret is a credential found inside a value: Kind says what it is (for
// messages), [Start, End) are the byte offsets of the credential itself
// (the password of a URL, not its user name or host).
type Secret struct {
	Kind       string
	Start, End int
}

// secretPattern is one recognisable credential: re's first submatch is the
// credential; ok, when set, must accept it (the guard against ordinary
// words that happen to share a prefix).
type secretPattern struct {
	kind string
	re   *regexp.Regexp
	ok   func(s string) bool
}

// secretPatterns are the credential formats FindSecrets knows, each
// anchored so that it does not start or end inside a longer word. The
// formats are those gitleaks' default rules detect (gitleaks/gitleaks
// config/gitleaks.toml at b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b, rule
// ids in parentheses):
//   - Hugging Face access tokens: "hf_" and 34 letters there
//     (huggingface-access-token); vlaunch accepted 30+ letters and digits
//     as a whole value before, and keeps that.
//   - GitHub: ghp_, gho_, ghu_, ghs_, ghr_ and 36 letters and digits
//     (github-pat, github-oauth, github-app-token, github-refresh-token);
//     github_pat_ and 82 word characters (github-fine-grained-pat), of
//     which the first 22 are required here.
//   - GitLab personal access tokens: glpat- and 20 (gitlab-pat).
//   - AWS access key ids: AKIA or ASIA and 16 of [A-Z2-7]
//     (aws-access-token); the secret key beside one has no prefix, and is
//     found as a URL's password.
//   - OpenAI and Anthropic keys: "sk-" (openai-api-key: sk-proj-,
//     sk-svcacct-, sk-admin- and legacy sk-; anthropic-api-key: sk-ant-).
//     gitleaks also requires OpenAI's T3BlbkFJ marker; here any sk- word of
//     20+ characters counts when it looks random (upper case, lower case
//     and digits, with a run of 20 letters and digits), so a path such as
//     "/models/task-classifier-v2" or "sk-learn-2024" is not one.
//   - Slack tokens: xoxb-, xoxp-, xoxa-, xoxr-, xoxe-, xoxo-, xoxs- and a
//     digit (slack-bot-token, slack-user-token, slack-legacy-*).
var secretPatterns = []secretPattern{
	{kind: "a Hugging Face token", re: regexp.MustCompile(`(?:^|[^A-Za-z0-9_])(hf_[A-Za-z0-9]{30,})(?:$|[^A-Za-z0-9_])`)},
	{kind: "a GitHub token", re: regexp.MustCompile(`(?:^|[^A-Za-z0-9_])((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})(?:$|[^A-Za-z0-9_])`)},
	{kind: "a GitLab token", re: regexp.MustCompile(`(?:^|[^A-Za-z0-9_])(glpat-[A-Za-z0-9_-]{20,})(?:$|[^A-Za-z0-9_-])`)},
	{kind: "an AWS access key", re: regexp.MustCompile(`(?:^|[^A-Za-z0-9])((?:AKIA|ASIA)[A-Z2-7]{16})(?:$|[^A-Za-z0-9])`)},
	{kind: "an API key (sk-…)", re: regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])(sk-[A-Za-z0-9_-]{20,})(?:$|[^A-Za-z0-9_-])`), ok: looksRandom},
	{kind: "a Slack token", re: regexp.MustCompile(`(?:^|[^A-Za-z0-9_])(xox[abeoprs](?:\.xox[bp])?-[0-9][A-Za-z0-9-]{9,})(?:$|[^A-Za-z0-9_-])`)},
}

// urlUserinfoRE finds "scheme://user:password@" anywhere in a value. The
// password runs to the next '@' and may hold '/' (an AWS secret key does,
// and users paste it so), which RFC 3986 userinfo may not: Go's url.Parse
// would not see it as userinfo at all.
var urlUserinfoRE = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:]*:([^\s@]+)@`)

// portPathRE is "port/path", which urlUserinfoRE also matches when a path
// holds an '@' (https://host:8443/a@b): a port, not a password.
var portPathRE = regexp.MustCompile(`^[0-9]*(?:[/?#].*)?$`)

// looksRandom: a key drawn from a 62-letter alphabet mixes upper case,
// lower case and digits, and has long runs of letters and digits; words
// joined by dashes (a file name) rarely do.
func looksRandom(s string) bool {
	var up, low, dig bool
	run, best := 0, 0
	for _, r := range s {
		isAlnum := true
		switch {
		case r >= 'A' && r <= 'Z':
			up = true
		case r >= 'a' && r <= 'z':
			low = true
		case r >= '0' && r <= '9':
			dig = true
		default:
			isAlnum = false
		}
		if isAlnum {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return up && low && dig && best >= 20
}

// FindSecrets returns the credentials inside v, in order and without
// overlaps: a URL's password (scheme://user:password@host, a password that
// is not a $VARIABLE), and the tokens of secretPatterns anywhere in the
// value. It is the one rule validate, generate and lint apply to every
// value they read (spec fields, script words, manifest values).
func FindSecrets(v string) []Secret {
	if !mayHoldSecret(v) {
		return nil
	}
	var out []Secret
	for _, m := range urlUserinfoRE.FindAllStringSubmatchIndex(v, -1) {
		pw := v[m[2]:m[3]]
		if portPathRE.MatchString(pw) || strings.HasPrefix(pw, "$") {
			continue
		}
		out = append(out, Secret{Kind: "a password in a URL", Start: m[2], End: m[3]})
	}
	for _, p := range secretPatterns {
		// The patterns consume one character of context on each side, so
		// search again from the end of the credential, not of the match.
		for from := 0; from < len(v); {
			m := p.re.FindStringSubmatchIndex(v[from:])
			if m == nil {
				break
			}
			s := Secret{Kind: p.kind, Start: from + m[2], End: from + m[3]}
			from = s.End
			if p.ok != nil && !p.ok(v[s.Start:s.End]) {
				continue
			}
			out = append(out, s)
		}
	}
	return mergeSecrets(out)
}

// secretMarkers are substrings every match of urlUserinfoRE or
// secretPatterns contains: a value with none of them is skipped without
// running the expressions (a spec of 10,000 nodes has 50,000 values, and
// plan checks its candidates' specs).
var secretMarkers = []string{"://", "hf_", "gh", "github_pat_", "glpat-", "AKIA", "ASIA", "sk-", "xox"}

func mayHoldSecret(v string) bool {
	for _, m := range secretMarkers {
		if strings.Contains(v, m) {
			return true
		}
	}
	return false
}

// mergeSecrets sorts secrets by position and drops any that overlaps one
// before it (a token inside a URL's password is reported once, as the
// password).
func mergeSecrets(s []Secret) []Secret {
	sort.SliceStable(s, func(i, j int) bool { return s[i].Start < s[j].Start })
	out := s[:0]
	for _, x := range s {
		if len(out) > 0 && x.Start < out[len(out)-1].End {
			continue
		}
		out = append(out, x)
	}
	return out
}

// MaskSecrets returns v with every credential FindSecrets finds replaced by
// "****", so a message can show where it is without echoing it.
func MaskSecrets(v string) string {
	s := FindSecrets(v)
	if len(s) == 0 {
		return v
	}
	var b strings.Builder
	last := 0
	for _, x := range s {
		b.WriteString(v[last:x.Start])
		b.WriteString("****")
		last = x.End
	}
	b.WriteString(v[last:])
	return b.String()
}

// SecretKinds names the credentials in v for a message ("a password in a
// URL", "a GitHub token and an AWS access key"); "" when there are none.
func SecretKinds(v string) string {
	var kinds []string
	seen := map[string]bool{}
	for _, s := range FindSecrets(v) {
		if !seen[s.Kind] {
			seen[s.Kind] = true
			kinds = append(kinds, s.Kind)
		}
	}
	switch len(kinds) {
	case 0:
		return ""
	case 1:
		return kinds[0]
	}
	return strings.Join(kinds[:len(kinds)-1], ", ") + " and " + kinds[len(kinds)-1]
}

// BlankSecrets returns a copy of a file's content with every byte of every
// credential FindSecrets finds on a line, and of every value given to a
// secret option (secretArgSpans), replaced by '*': the lengths, and so
// every line and column, stay as they were. Commands show source lines
// under their findings from it, so no printed snippet echoes a credential.
func BlankSecrets(content []byte) []byte {
	out := append([]byte(nil), content...)
	start := 0
	pending := false
	for start <= len(out) {
		end := start + bytesIndexNL(out[start:])
		line := string(out[start:end])
		spans, carry := secretArgSpans(line, pending)
		pending = carry
		for _, s := range FindSecrets(line) {
			spans = append(spans, [2]int{s.Start, s.End})
		}
		for _, s := range spans {
			for i := start + s[0]; i < start+s[1]; i++ {
				out[i] = '*'
			}
		}
		start = end + 1
	}
	return out
}

// lineWordRE is a word of a line of YAML or shell: what lies between
// blanks, quotes, brackets, braces and commas.
var lineWordRE = regexp.MustCompile(`[^\s"'\[\]{},]+`)

// secretArgSpans finds the values given to secret options (SecretFlag) on
// one line of a spec or launch file: after "=" ("--hf-token=VALUE"), or the
// next word that is not an option, on this line or, when the option ends
// it (pending for the next line), the next one, past a YAML "- " or a
// shell "\" continuation. Comments are not read. It returns the byte spans
// and whether an option at the line's end still waits for its value.
func secretArgSpans(line string, pending bool) (spans [][2]int, carry bool) {
	code := line
	if i := commentStart(line); i >= 0 {
		code = line[:i]
	}
	for _, w := range lineWordRE.FindAllStringIndex(code, -1) {
		word := code[w[0]:w[1]]
		switch {
		case word == "-" || word == "\\":
			continue // a YAML sequence item's marker, a shell continuation
		case pending && !strings.HasPrefix(word, "-"):
			spans = append(spans, [2]int{w[0], w[1]})
			pending = false
			continue
		}
		pending = false
		if _, ok := SecretFlag(word); !ok {
			continue
		}
		if eq := strings.IndexByte(word, '='); eq >= 0 {
			if w[0]+eq+1 < w[1] {
				spans = append(spans, [2]int{w[0] + eq + 1, w[1]})
			}
			continue
		}
		pending = true
	}
	return spans, pending
}

// commentStart is the index of a "#" that starts a comment (at the start
// of the line or after a blank), or -1.
func commentStart(line string) int {
	for i := 0; i < len(line); i++ {
		if line[i] == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			return i
		}
	}
	return -1
}

// bytesIndexNL is the length of b's first line (without its newline).
func bytesIndexNL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return len(b)
}
