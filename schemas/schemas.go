// Package schemas embeds the JSON Schema (draft-07) of the deployment spec,
// so that `vlaunch schema` can print it and package validate can check
// documents against the very same bytes users see.
package schemas

import _ "embed"

// Deployment is deployment.schema.json, the schema of a vlaunch/v1 Deployment.
//
//go:embed deployment.schema.json
var Deployment []byte

// DeploymentID is the schema's $id.
const DeploymentID = "https://github.com/vlaunch/vlaunch/schemas/deployment.schema.json"
