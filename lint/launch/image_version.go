package launch

// ImageVersion is the vLLM release an image reference names, read as lint
// reads it (imageVersion: a vLLM image's tag, or a release written after
// the word vllm, as AMD's rocm/vllm tags do), "" when it names none. It
// lets validate read an image the one way lint does.
func ImageVersion(image string) string { return imageVersion(image) }
