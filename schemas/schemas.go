// Package schemas embeds the JSON Schema (draft-07) of the deployment spec,
// so that `vlaunch schema` can print it and package validate can check
// documents against the very same bytes users see.
package schemas

import _ "embed"

// Deployment is deployment.schema.json, the schema of a vlaunch/v1 Deployment.
//
//go:embed deployment.schema.json
var Deployment []byte

// DeploymentID is the schema's $id: the address of deployment.schema.json
// on the repository's main branch, which serves the file as it is, so an
// editor can fetch it (`vlaunch init` writes it in the spec's
// yaml-language-server modeline). It names the vlaunch/v1 format rather
// than a release: one address editors' settings can keep, where a versioned
// one would change with every release and not exist for a build between
// them. A binary's own copy, exactly, is `vlaunch schema --out-file FILE`.
const DeploymentID = "https://raw.githubusercontent.com/vlaunch/vlaunch/main/schemas/deployment.schema.json"
