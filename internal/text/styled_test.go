package text

import "testing"

func TestPrintableStyled(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[1;38;2;10;20;30mbold\x1b[m", "\x1b[1;38;2;10;20;30mbold\x1b[m"},
		{"a\x1b]0;TITLE\x07b", `a\x1b]0;TITLE\ab`},
		{"\x1b]8;;http://evil/\x07link", `\x1b]8;;http://evil/\alink`},
		{"\x1bPqDCS\x1b\\", `\x1bPqDCS\x1b\`},
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"nul\x00 \u009b31m \u202eevil", `nul\x00 \u009b31m \u202eevil`},
		{"\x1b[", `\x1b[`},
	} {
		if got := PrintableStyled(tt.in); got != tt.want {
			t.Errorf("PrintableStyled(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
