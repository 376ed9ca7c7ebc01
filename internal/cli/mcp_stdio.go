package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"
)

// Run in a terminal, `kubectl backoff mcp` waited in silence, and a line
// typed at it ended it with the JSON decoder's words ("invalid character
// 'h' looking for beginning of value"): stdin is the protocol's, written
// by an assistant. The note says so first, on stderr (stdout is the
// protocol's), and a line that is not JSON says what was expected.

// mcpStdioNote is said on stderr when stdin is a terminal.
const mcpStdioNote = "kubectl backoff mcp speaks the Model Context Protocol (JSON-RPC) on stdin and stdout: " +
	"an AI assistant starts it (docs/mcp.md has the configuration of Claude, VS Code and Cursor); " +
	"what is typed here is not read as a question. --listen 127.0.0.1:8090 serves HTTP instead. Ctrl-C stops it."

// readerIsTerminal reports whether r is a terminal.
func readerIsTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// stdioError is the stdio server's end: a message that is not JSON says
// what stdin should carry, and who writes it.
func stdioError(err error) error {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return fmt.Errorf("stdin is not MCP's JSON-RPC (%v): an AI assistant starts kubectl backoff mcp and writes to it (docs/mcp.md)", err)
	}
	return err
}
