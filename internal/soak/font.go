package soak

import (
	"image"
	"image/color"
	"strings"
)

// glyphs is a 3×5 bitmap font for what a panel writes: names, units, numbers and
// verdicts. Each glyph is
// five rows of three pixels, '#' lit. Letters are drawn as capitals; a character without a glyph
// is drawn as a box.
var glyphs = map[rune]string{
	'0': "### #.# #.# #.# ###", '1': ".#. ##. .#. .#. ###", '2': "### ..# ### #.. ###",
	'3': "### ..# ### ..# ###", '4': "#.# #.# ### ..# ..#", '5': "### #.. ### ..# ###",
	'6': "### #.. ### #.# ###", '7': "### ..# ..# ..# ..#", '8': "### #.# ### #.# ###",
	'9': "### #.# ### ..# ###",
	'a': ".#. #.# ### #.# #.#", 'b': "##. #.# ##. #.# ##.", 'c': ".## #.. #.. #.. .##",
	'd': "##. #.# #.# #.# ##.", 'e': "### #.. ##. #.. ###", 'f': "### #.. ##. #.. #..",
	'g': ".## #.. #.# #.# .##", 'h': "#.# #.# ### #.# #.#", 'i': "### .#. .#. .#. ###",
	'j': "..# ..# ..# #.# .#.", 'k': "#.# #.# ##. #.# #.#", 'l': "#.. #.. #.. #.. ###",
	'm': "#.# ### ### #.# #.#", 'n': "##. #.# #.# #.# #.#", 'o': ".#. #.# #.# #.# .#.",
	'p': "##. #.# ##. #.. #..", 'q': ".#. #.# #.# ##. .##", 'r': "##. #.# ##. #.# #.#",
	's': ".## #.. .#. ..# ##.", 't': "### .#. .#. .#. .#.", 'u': "#.# #.# #.# #.# ###",
	'v': "#.# #.# #.# #.# .#.", 'w': "#.# #.# ### ### #.#", 'x': "#.# #.# .#. #.# #.#",
	'y': "#.# #.# .#. .#. .#.", 'z': "### ..# .#. #.. ###",
	'_': "... ... ... ... ###", '.': "... ... ... ... .#.", '%': "#.# ..# .#. #.. #.#",
	'/': "..# ..# .#. #.. #..", '-': "... ... ### ... ...", '+': "... .#. ### .#. ...",
	':': "... .#. ... .#. ...", '(': ".#. #.. #.. #.. .#.", ')': ".#. ..# ..# ..# .#.",
	',': "... ... ... .#. #..", '<': "..# .#. #.. .#. ..#", '>': "#.. .#. ..# .#. #..",
	'=': "... ### ... ### ...",
	' ': "... ... ... ... ...",
}

// missing is the glyph of a character the font lacks.
const missing = "### #.# #.# #.# ###"

// fontScale is how many pixels a glyph's pixel takes each way; advance is a character's width
// with its gap, textHeight a line's height.
const (
	fontScale  = 2
	advance    = 4 * fontScale
	textHeight = 5 * fontScale
)

// textWidth is how wide text is drawn.
func textWidth(text string) int { return len([]rune(text)) * advance }

// drawText writes text with its top left corner at (x, y).
func drawText(img *image.RGBA, x, y int, text string, c color.RGBA) {
	for _, r := range strings.ToLower(text) {
		g, ok := glyphs[r]
		if !ok {
			g = missing
		}
		for row, bits := range strings.Fields(g) {
			for col, bit := range bits {
				if bit == '#' {
					fill(img, image.Rect(x+col*fontScale, y+row*fontScale, x+(col+1)*fontScale, y+(row+1)*fontScale), c)
				}
			}
		}
		x += advance
	}
}
