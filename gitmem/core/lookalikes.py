"""Look-alike letters: a letter that shows as a Latin letter or digit is read as that one
(step 1 of ``docs/verifier.md``, for :mod:`gitmem.core.folding`), so that a word spelt
with look-alikes ("n\u043et" with a Cyrillic "о", fullwidth "ｎｏｔ", mathematical bold,
small capitals, Lisu "ꓠꓳꓔ") is the word it shows to every rule. One character for one,
so offsets hold. Pure string operations; never raises.
"""

from __future__ import annotations

import re

from gitmem.core.patterns import lazy_pattern

# The pairs are those of Unicode's confusables (UTS #39) for Cyrillic, Greek, Armenian and Latin
# letters whose target is one Latin letter. Small letters are read after case folding,
# on folded letters; a capital whose small letter shows another Latin letter, or none,
# is read before it (:data:`_CAPITAL_LOOK_ALIKES`: "Η" shows "H", "η" shows "n"). "μ"
# is left alone: "µs" is not "ms".
_PAIRED_LOOK_ALIKES = (
    "аa еe кk мm оo рp сc тt уy хx ѕs іi јj һh ԁd ԛq ԝw ӏl үy гr ѡw ѵv ҽe"  # Cyrillic
    " αa βb εe ζz ηn ιi κk νv οo ρp τt υu χx γy σo ϲc ϳj ϱp"  # Greek
    " աw գq զq հh ոn ռn սu ցg քf օo"  # Armenian
    " ᴀa ʙb ᴄc ᴅd ᴇe ɢg ʜh ɪi ᴊj ᴋk ʟl ᴍm ɴn ᴏo ᴘp ʀr ꜱs ᴛt ᴜu ᴠv ᴡw ʏy ᴢz ıi ȷj ɡg"
    " ɑa ɩi ʋu ɣy ɯw ᴑo"  # Latin
)
_CAPITAL_LOOK_ALIKES = "Ηh Μm Νn Υy ϒy Ϝf Ϻm Տs 𑢣l 𑢤y 𑢼t"
"""Greek, Armenian and Warang Citi capitals that show another Latin letter than their
small letter does (or than none), read before case folding."""
_OTHER_LOOK_ALIKES = (
    "ƅb ƍg ƽs ǀl ᶃg ᶌy ẝf ỿy ꞙf ꞟu ʝj ꭓx ꞵb ꬲe ꬵf ꬽo ꭇr ꭈr ꭎu ꭒu ꭚy"  # Latin
    " Ꭰd Ꭱr Ꭲt Ꭵi Ꭹy Ꭺa Ꭻj Ꭼe Ꮃw Ꮇm Ꮋh Ꮍy Ꮐg Ꮒh Ꮓz Ꮟb Ꮢr Ꮤw Ꮥs Ꮩv Ꮪs Ꮮl Ꮯc"  # Cherokee
    " Ꮲp Ꮶk Ꮷd Ᏻg Ᏼb Ꮁr"  # Cherokee
    " ᐯv ᑌu ᑭp ᑯd ᑲb ᒍj ᒪl ᕁx ᕼh ᕽx ᖇr ᖯb ᖴf ᗅa ᗞd ᗪd ᗰm ᗷb"  # Canadian syllabics
    " ᚷx ᛁi ᛕk ᛖm"  # Runic
    " ℂc ℍh ℕn ℙp ℚq ℝr ℤz ℽy ⅅd ⅆd ⅇe ⅈi ⅉj"  # double-struck letters
    " ℊg ℋh ℐi ℒl ℓl ℛr ℬb ℯe ℰe ℱf ℳm ℴo"  # script letters
    " ℌh ℑi ℜr ℨz ℭc"  # black-letter letters
    " ℎh ℹi"  # letterlike symbols
    " ⲅr ⲏh ⲓi ⲕk ⲙm ⲛn ⲟo ⲣp ⲥc ⲧt ⲩy ⲭx ⳑl"  # Coptic
    " ⴸv ⴹe ⵏl ⵔo ⵕq ⵝx"  # Tifinagh
    " ꓐb ꓑp ꓒd ꓓd ꓔt ꓖg ꓗk ꓙj ꓚc ꓜz ꓝf ꓟm ꓠn ꓡl ꓢs ꓣr ꓦv ꓧh ꓪw ꓫx ꓬy ꓮa ꓰe"  # Lisu
    " ꓲi ꓳo ꓴu"  # Lisu
    " 𐊂b 𐊆e 𐊇f 𐊊l 𐊐x 𐊒o 𐊕p 𐊖s 𐊗t"  # Lycian
    " 𐊠a 𐊡b 𐊢c 𐊥f 𐊫o 𐊰m 𐊱t 𐊲y 𐊴x 𐋏h"  # Carian
    " 𐌁b 𐌂c 𐌉i 𐌑m 𐌕t 𐌗x"  # Old Italic
    " 𐐬o 𐐽c 𐑃l 𐑈s"  # Deseret
    " 𐓜r 𐓪o 𐓶u"  # Osage
    " 𐔓n 𐔖o 𐔘k 𐔜c 𐔝v 𐔥f 𐔦l 𐔧x"  # Elbasan
    " 𑜆v 𑜊w 𑜎w 𑜏w"  # Ahom
    " 𑣀v 𑣂f 𑣆e 𑣉z 𑣎e 𑣒l 𑣕o 𑣘u 𑣁s 𑣃i 𑣄z 𑣈o 𑣗o 𑣜y"  # Warang Citi
    " 𖼈v 𖼊t 𖼖l 𖼨l 𖼵r 𖼺s 𖽀a 𖽂u 𖽃y"  # Miao
    " 𝚤i 𝚨a 𝚩b 𝚬e 𝚭z 𝚮h 𝚰i 𝚱k 𝚳m 𝚴n 𝚶o 𝚸p 𝚻t 𝚼y 𝚾x 𝛂a 𝛄y 𝛊i 𝛎v 𝛐o 𝛒p 𝛔o 𝛖u"  # mathematical Greek
    " 𝛠p 𝛢a 𝛣b 𝛦e 𝛧z 𝛨h 𝛪i 𝛫k 𝛭m 𝛮n 𝛰o 𝛲p 𝛵t 𝛶y 𝛸x 𝛼a 𝛾y 𝜄i 𝜈v 𝜊o 𝜌p 𝜎o 𝜐u"  # mathematical Greek
    " 𝜚p 𝜜a 𝜝b 𝜠e 𝜡z 𝜢h 𝜤i 𝜥k 𝜧m 𝜨n 𝜪o 𝜬p 𝜯t 𝜰y 𝜲x 𝜶a 𝜸y 𝜾i 𝝂v 𝝄o 𝝆p 𝝈o 𝝊u"  # mathematical Greek
    " 𝝔p 𝝖a 𝝗b 𝝚e 𝝛z 𝝜h 𝝞i 𝝟k 𝝡m 𝝢n 𝝤o 𝝦p 𝝩t 𝝪y 𝝬x 𝝰a 𝝲y 𝝸i 𝝼v 𝝾o 𝞀p 𝞂o 𝞄u"  # mathematical Greek
    " 𝞎p 𝞐a 𝞑b 𝞔e 𝞕z 𝞖h 𝞘i 𝞙k 𝞛m 𝞜n 𝞞o 𝞠p 𝞣t 𝞤y 𝞦x 𝞪a 𝞬y 𝞲i 𝞶v 𝞸o 𝞺p 𝞼o 𝞾u"  # mathematical Greek
    " 𝟈p 𝟊f"  # mathematical Greek
)
"""The letters of other scripts and letterlike symbols that UTS #39's confusables give
one ASCII letter for (Cherokee "Ꮯ", Lisu "ꓠ", Canadian syllabics, Coptic, script and
double-struck capitals "ℕ", mathematical Greek, …), case-folded ("ꮯ" folds to "Ꮯ"), so
"ꓠOT" is "not" to every rule. A look-alike of "I" (a capital, an iota) reads "i", as "I"
does once folded; of "l" or "|", "l". Left out: digits and symbols ("×" is a sign of a
number), and the letters of scripts whose languages gitmem reads words of (Devanagari,
Thai, Georgian, Ethiopic, …), where a letter is a letter of a word."""
_CYRILLIC_CAPITALS = "Нh Вb Ьb Ԍg"
"""Cyrillic capitals whose small letters show no Latin letter. They are read as Latin in
a word that also holds a letter of another script ("WITНOUT"); a word written wholly in
Cyrillic is read as Cyrillic, where "НЕ" is the Russian "не" ("not"), not "HE". The words
an ellipsis may not skip are also read with "н" for "h" and "в" or "ь" for "b"
(:mod:`gitmem.core.negation`), so a word of Cyrillic letters that shows one ("НАгԁӏу")
is one."""
_CAPITALS_RE = lazy_pattern(
    "[" + "".join(p[0] for p in _CAPITAL_LOOK_ALIKES.split() if p < "\U00010000") + "]"
    "|[\U000118a0-\U000118bf]"
)
_CYRILLIC_WORD_RE = lazy_pattern(
    r"(?<![^\W\d_])[^\W\d_]*[" + "".join(p[0] for p in _CYRILLIC_CAPITALS.split()) + r"][^\W\d_]*"
)
_OTHER_SCRIPT_RE = lazy_pattern("[^\u0400-\u052f]")
_CAPITALS = str.maketrans({p[0]: p[1] for p in _CAPITAL_LOOK_ALIKES.split()})
_CYRILLIC = str.maketrans({p[0]: p[1] for p in _CYRILLIC_CAPITALS.split()})


def read_capitals(text: str) -> str:
    """*text* (before case folding) with the capitals of :data:`_CAPITAL_LOOK_ALIKES`
    read as the Latin letter they show, and those of :data:`_CYRILLIC_CAPITALS` in a word
    that mixes scripts. One character for one, so offsets hold. Never raises."""
    if _CAPITALS_RE.search(text):
        text = text.translate(_CAPITALS)
    if any(pair[0] in text for pair in _CYRILLIC_CAPITALS.split()):
        text = _CYRILLIC_WORD_RE.sub(_read_mixed_word, text)
    return text


def _read_mixed_word(word: re.Match[str]) -> str:
    found = word.group()
    return found.translate(_CYRILLIC) if _OTHER_SCRIPT_RE.search(found) else found


_OTHER_RE = lazy_pattern(
    "[" + "".join(p[0] for p in _OTHER_LOOK_ALIKES.split() if p < "\U00010000") + "]"
    "|[\U00010280-\U0001d7ff]"
)
"""A letter of :data:`_OTHER_LOOK_ALIKES` (those beyond the Basic Multilingual Plane by
their range: a class that names one of them is checked a member at a time, ~60 times
slower than a class of the plane's letters alone)."""
LOOK_ALIKE_RE = lazy_pattern(
    "[" + "".join(pair[0] for pair in _PAIRED_LOOK_ALIKES.split()) + "\uff01-\uff5e]"
    f"|{_OTHER_RE.pattern}"
)
_MATHEMATICAL_RE = lazy_pattern("[\U0001d400-\U0001d7ff]")
_look_alikes: list[tuple[str, str]] = []
_other_look_alikes: dict[str, str] = {}
_mathematical: dict[int, str] = {}


def read_look_alikes(text: str) -> str:
    """*text* (case-folded) with its look-alike letters read as the ASCII letter or digit
    they show: the pairs above, fullwidth forms (U+FF01–U+FF5E) and mathematical letters
    and digits (their compatibility form). One character for one, so offsets hold.
    str.replace per character found is several times faster than str.translate."""
    if not _look_alikes:
        _look_alikes.extend((pair[0], pair[1]) for pair in _PAIRED_LOOK_ALIKES.split())
        _look_alikes.extend(
            (chr(code), chr(code - 0xFEE0).casefold()) for code in range(0xFF01, 0xFF5F)
        )
        _other_look_alikes.update((pair[0], pair[1]) for pair in _OTHER_LOOK_ALIKES.split())
    for old, new in _look_alikes:
        if old in text:
            text = text.replace(old, new)
    if _OTHER_RE.search(text):  # rare: only the few a text holds are looked up
        for old in set(_OTHER_RE.findall(text)):
            if (shown := _other_look_alikes.get(old)) is not None:
                text = text.replace(old, shown)
    if _MATHEMATICAL_RE.search(text):
        if not _mathematical:
            import unicodedata

            for code in range(0x1D400, 0x1D800):
                shown = unicodedata.normalize("NFKC", chr(code))
                if len(shown) == 1 and shown.isascii() and shown.isalnum():
                    _mathematical[code] = shown.casefold()
        text = text.translate(_mathematical)
    return text
