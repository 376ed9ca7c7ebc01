package cli

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestStdioError: a line on stdin that is not JSON (typed in a terminal)
// ends the server saying what stdin should carry; other errors pass as
// they are.
func TestStdioError(t *testing.T) {
	var v any
	syntax := json.Unmarshal([]byte("hello"), &v)
	got := stdioError(syntax)
	if got == nil || !strings.Contains(got.Error(), "stdin is not MCP's JSON-RPC (invalid character 'h'") || !strings.Contains(got.Error(), "docs/mcp.md") {
		t.Errorf("stdioError(%v) = %v, want it to say stdin is not JSON-RPC and where to read how to start it", syntax, got)
	}
	if got := stdioError(io.ErrUnexpectedEOF); !errors.Is(got, io.ErrUnexpectedEOF) || got.Error() != io.ErrUnexpectedEOF.Error() {
		t.Errorf("stdioError(%v) = %v, want it unchanged", io.ErrUnexpectedEOF, got)
	}
	if stdioError(nil) != nil {
		t.Error("stdioError(nil) is not nil")
	}
}
