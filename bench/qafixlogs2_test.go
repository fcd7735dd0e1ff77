package bench

import (
	"bytes"
	"os"
	"testing"
)

// TestParseBOM (QA 38b #6): a result file saved with a UTF-8 byte order
// mark (Windows editors, PowerShell's Out-File) is read as the same file
// without it; the file's SHA-256 is of the bytes as read, so a CRLF copy
// is a different file and a byte-identical copy the same.
func TestParseBOM(t *testing.T) {
	data, err := os.ReadFile("testdata/vllm-serve.json")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Parse("a.json", data)
	if err != nil {
		t.Fatal(err)
	}
	bom, err := Parse("bom.json", append([]byte("\xef\xbb\xbf"), data...))
	if err != nil {
		t.Fatalf("BOM: %v", err)
	}
	if len(bom) != 1 || len(plain) != 1 || bom[0].OutputTokPerS != plain[0].OutputTokPerS || bom[0].Shape != plain[0].Shape {
		t.Fatalf("BOM file read as %+v, want %+v", bom, plain)
	}
	copyRs, _ := Parse("copy.json", append([]byte{}, data...))
	crlf, err := Parse("crlf.json", bytes.ReplaceAll(data, []byte(", \""), []byte(",\r\n\"")))
	if err != nil {
		t.Fatal(err)
	}
	if len(plain[0].FileSHA256) != 64 || copyRs[0].FileSHA256 != plain[0].FileSHA256 || crlf[0].FileSHA256 == plain[0].FileSHA256 || bom[0].FileSHA256 == plain[0].FileSHA256 {
		t.Errorf("sha256: plain %s copy %s crlf %s bom %s", plain[0].FileSHA256, copyRs[0].FileSHA256, crlf[0].FileSHA256, bom[0].FileSHA256)
	}
}
