package vllm

// BenchRandomPromptSource is how `vllm bench serve --dataset-name random`
// builds a prompt, and why the API server then encodes text that is not
// natural language: the client walks the tokenizer's vocabulary in id
// order from a random offset (consecutive ids, not independent draws),
// decodes the ids to a string, and re-encodes it until the length matches
// (up to 10 tries, padding with random ids or truncating); the request
// carries that string, so the server's tokenizer encodes it once more
// (PromptTokenizationSource). Such text decodes to about 6–7 bytes a token
// against about 4.8 for English, and its pre-tokenizer pieces are mostly
// words the tokenizer's word cache has never seen (perf.RandomTextPromptTokenS
// prices what that costs). Read at two stored versions of main; the 0.11.0
// and 0.15.0 tags were not read, and the walk is assumed the same there
// (both stored copies, before and after the move to vllm.tokenizers, have
// it; an older copy's single re-encode and truncate differs only in the
// retry loop).
const BenchRandomPromptSource = "vllm/benchmarks/datasets.py at commit 0056b87f (vllm.tokenizers era) and an " +
	"earlier stored copy (Optional[...] typing): RandomDataset.generate_token_sequence, `inner_seq = " +
	"allowed_tokens[(offset + index + np.arange(input_len)) % len(allowed_tokens)]` (\"sampling sequentially " +
	"from the allowed tokens\"; allowed = vocabulary minus tokenizer.all_special_ids; offsets = " +
	"rng.integers(0, vocab_size)), then gen_prompt_decode_to_target_len (vllm/benchmarks/datasets.py, " +
	"vllm/benchmarks/dataset_utils.py in the later copy): `prompt = tokenizer.decode(token_sequence)`, " +
	"`token_sequence = tokenizer.encode(prompt, add_special_tokens=False)`, pad or truncate, max_retry = 10; " +
	"SampleRequest.prompt is that string. Release tags 0.11.0 and 0.15.0 not read"
