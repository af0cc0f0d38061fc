"""How the gate reads a question: normalised text, plain tokens, and the member's wording.

Everything here is pure text work for ``policy/routine.py``. Two forms of a question are
read: the *code* form (lower-cased, accents stripped, punctuation kept) for shell, SQL and
money spellings, and the *words* form (plain ``[a-z0-9]`` tokens joined by single spaces)
for word families, stems and phrases — as written, and again with obfuscation undone. A
member's own wording about the question ("this is routine", "ignore your rules") is found
here too: assurances are dropped as noise, and instructions addressed to the concierge make
the question one the gate will not place.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "assurances_removed",
    "code_form",
    "deobfuscated_form",
    "has_unreadable_letters",
    "injection",
    "question_count",
    "tokens",
    "word_set",
    "words_form",
]

_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]"
)
_DASHES = re.compile("[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00b4": "'"})
_SPACES = re.compile(r"\s+")

# Leetspeak inside a word ("del3te", "pa55word"): undone only where a run mixes letters with
# these characters, so plain numbers ("port 4321") stay numbers.
_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
_MIXED_RUN = re.compile(r"[a-z0-9@$]*[a-z][a-z0-9@$]*")
_LEET_NEXT_TO_LETTER = re.compile(r"[a-z][013457@$]|[013457@$][a-z]")
_INNER_SEPARATOR = re.compile(r"(?<=[a-z0-9])[-_.'*|\\/](?=[a-z0-9])")
# Letters spelled out one by one ("d e l e t e", "d.e.l.e.t.e", "d-e-l-e-t-e").
_SPELLED = re.compile(r"\b[a-z](?:[ .\-_*][a-z]\b){3,}")
_TOKEN = re.compile(r"[a-z0-9]+")


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text``: the gate's small vocabularies."""
    return frozenset(text.split())


def _step_end(text: str, k: int) -> str:
    """Character ``k`` of ``text``, a pictograph as the comma that ends a step, unless it is
    a sign of the letter-like blocks (before the arrows, U+2190: "°", "℃", "№") right after a
    number (a space between at most): there it is the number's unit, inside its clause."""
    c = text[k]
    if unicodedata.category(c) != "So":
        return c
    before = text[max(0, k - 2) : k].rstrip(" ")
    return c if before[-1:].isdigit() and ord(c) < _ARROWS else ", "


_ARROWS = 0x2190  # from here on the symbol blocks are arrows, dingbats and pictographs


def code_form(text: str) -> str:
    """NFKC, lower case, accents and invisible characters dropped, dashes and quotes ASCII."""
    if text.isascii():  # already NFKC, with no invisible characters, dashes or accents
        return _SPACES.sub(" ", text.lower()).strip()
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text)
    # a pictograph between words ends a step ("format code ✅ email the list ✅"): a comma;
    # a symbol after a number is its unit ("to 850°C on the live kiln"), no step's end
    text = "".join(_step_end(text, k) for k in range(len(text)))
    text = _DASHES.sub("-", text).translate(_QUOTES)
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return _SPACES.sub(" ", text.lower()).strip()


def _unleet(match: re.Match[str]) -> str:
    run = match.group(0)
    if run.isalpha() or not any(c.isalpha() for c in run) or (run[0].isdigit() and run.isalnum()):
        return run
    return run.translate(_LEET)


# A capital that starts no sentence, line, clause or quotation: the word is a name as written
# ("the window in Argentina", "on Samsung Tizen"), whatever a dictionary says of it.
_NAME_CAPITAL = re.compile(r"(?<![\s.!?:;(\[\-\u2013\u2014\"'`*>#])[ \t]+([A-Z]\w*)")


def capitalised_names(text: str) -> frozenset[str]:
    """The words the writer capitalised where no sentence, line, clause or quotation starts
    ("Argentina", "Tizen", "HLS"), in lower case: the names a question gives its thing by.
    "I" is no name."""
    return frozenset(m.group(1).lower() for m in _NAME_CAPITAL.finditer(text) if m.group(1) != "I")


def words_form(code: str) -> str:
    """The plain tokens of a code-form text, one space apart."""
    return " ".join(_TOKEN.findall(code))


def deobfuscated_form(code: str) -> str:
    """The words form with letters spelled out one by one joined, separators inside a word
    dropped ("de-lete", "re_move") and leetspeak undone."""
    joined = _SPELLED.sub(lambda m: re.sub(r"[ .\-_*]", "", m.group(0)), code)
    joined = _INNER_SEPARATOR.sub("", joined)
    if _LEET_NEXT_TO_LETTER.search(joined):
        joined = _MIXED_RUN.sub(_unleet, joined)
    return words_form(joined)


def tokens(code: str) -> list[str]:
    """The plain ``[a-z0-9]`` tokens of a code-form text, in order."""
    return _TOKEN.findall(code)


def has_unreadable_letters(code: str) -> bool:
    """Letters outside ASCII after normalisation: homoglyphs or a language the gate cannot read."""
    return not code.isascii() and any(c.isalpha() and not c.isascii() for c in code)


def question_count(code: str) -> int:
    """How many separate questions the text asks ("yes or no?" and "ok?" tails not counted)."""
    parts = [p.strip() for p in code.split("?")[:-1]]
    return sum(1 for p in parts if p and not _TRIVIAL_QUESTION.match(p))


_TRIVIAL_QUESTION = re.compile(
    r"^(?:[,.;:\-]\s*)?(?:yes or no|y/n|\(y/n\)|ok|okay|right|yes/no|correct)$"
)


# A member saying the question is harmless is not evidence that it is: these phrases are
# removed before the routine kinds are matched, so they can neither help nor hurt.
_ASSURANCE = re.compile(
    r"\b(?:"
    r"(?:this|it|that)(?: is| s| was)(?: totally| completely| perfectly| entirely| absolutely"
    r"| just| fully| 100| quite| very)*"
    r" (?:routine|safe|harmless|fine|reversible|low risk|risk free|riskless|innocuous|benign"
    r"|trivial|standard|ok|okay|approved|pre approved|allowed)"
    r"|no risk(?: at all)?|zero risk|risk free|nothing can go wrong|nothing will break"
    r"|no harm(?: done)?|don t worry|dont worry|trust me|no need to (?:ask|check|escalate)"
    r"|(?:totally|completely|perfectly) (?:safe|harmless|fine)|all safe|safe and routine"
    r"|routine and safe|safe operation|standard procedure|as usual|nothing risky"
    r")\b"
)


def assurances_removed(words: str) -> str:
    """The words form with the member's assurances about its own question taken out."""
    return _SPACES.sub(" ", _ASSURANCE.sub(" ", words)).strip()


# Instructions addressed to the concierge or the gate itself, or claims of the human's
# authority: never authorisation, and a question carrying them is not one the gate places.
_INJECTION = re.compile(
    r"\b(?:"
    r"(?:ignore|disregard|forget|override|bypass|skip|suspend|circumvent) (?:all |any |the |your "
    r"|previous |prior |earlier |above |these |those |safety |my )*(?:rules?|instructions?|policy"
    r"|policies|guidelines?|gate|checks?|restrictions?|guardrails?|prompt|system|constraints?"
    r"|filters?|safeguards?|limits?)"
    r"|(?:answer|reply|respond|say|output|return|print|write|type)(?: with| only| just)*"
    r" (?:approve|approved|yes|allow|allowed|ok|okay|granted|confirmed?|go ahead)"
    r"|just (?:say|answer|reply) (?:yes|ok|approve)"
    r"|you (?:are|re) (?:now |hereby )?(?:allowed|authori[sz]ed|permitted|cleared|free|instructed)"
    r"|you (?:have|ve) (?:my |the owner s |the human s |full )?"
    r"(?:permission|approval|authori[sz]ation)"
    r"|(?:the )?(?:owner|human|user|boss|admin|operator|manager|lead)(?: has| s)? (?:already )?"
    r"(?:approved|authori[sz]ed|allowed|permitted|agreed|signed off|ok d|said (?:yes|ok|it s fine))"
    r"|(?:pre|auto) ?approved?|auto approve|standing (?:approval|permission)"
    r"|system prompt|developer mode|jailbreak|new instructions|act as|pretend (?:to be|you)"
    r"|you must (?:answer|approve|reply|say)|do not escalate|don t escalate|dont escalate"
    r"|without (?:asking|escalating|checking)(?: the (?:human|owner|user))?"
    r"|as (?:the|your) (?:owner|admin|operator|system)"
    r"|(?:dear|hey|hi|note to|attention|to) (?:the )?concierge|concierge (?:please|answer|approve"
    r"|reply|say|respond|you)|(?:the )?concierge (?:may|can|should|must|is allowed|is authori[sz]ed"
    r"|has permission)|auto ?answer\w*|answer (?:it|this) (?:yourself|automatically|for me)"
    r"|(?:don t|do not|dont|no need to) (?:ask|bother|wake|ping) (?:the |my )?"
    r"(?:human|owner|user|boss)"
    r")\b"
)
_MARKUP_INJECTION = re.compile(
    r"<\|[a-z_]+\|>|\[/?(?:system|inst|admin|assistant|user)\]"
    r"|<\s*/?\s*(?:system|instructions?|admin|assistant|developer|prompt)\s*>"
    r"|#{2,}\s*(?:system|instruction)|<!--[^>]*(?:concierge|approve|answer|yes)"
    r"|(?:^|[\n.?!]\s*)(?:system|assistant|developer|admin|ai|bot|concierge|approver|reviewer"
    r"|gate)\s*(?:message|prompt|note|override)?\s*:"
    r"|```\s*(?:system|instructions?)"
)
# Who may give the word a question cannot claim to have.
_HOLDER = (
    r"(?:the |my |our |your )?(?:owner|human|boss|admin|operator|manager|management|lead"
    r"|team lead|tech lead|cto|ceo|supervisor|principal|maintainer|stakeholder|product owner)"
)
# Claims of the human's word or of an approval the question cannot show, and orders to
# answer a given way, in more words than the list above (a second net, same verdict).
_AUTHORITY = re.compile(
    r"\b(?:authori[sz]ed|approved|cleared|signed off|sanctioned|green[- ]?lit|greenlighted|ok ?d"
    r"|okayed|blessed|allowed) by (?:the |my |our |your )?(?:owner|human|user|boss|admin|operator"
    r"|manager|management|lead|cto|ceo|team|security|legal|supervisor|principal)"
    r"|\b(?:already|pre)[- ]?(?:approved|authori[sz]ed|cleared|confirmed|agreed|signed off)"
    r"|\b(?:has|have) (?:already )?been (?:approved|authori[sz]ed|signed off|cleared)"
    r"|\b(?:policy|rules?|guidelines?) (?:allows?|permits?|says? (?:yes|it s fine|to approve))"
    r"|\b(?:override|bypass|jailbreak|developer mode|sudo mode|god mode|admin mode|dan mode)\b"
    r"|\b(?:reply|respond|answer|say|output|type|return|print|write|confirm)(?: with| only| just)*"
    r" (?:yes|y|ok|okay|approve|approved|confirmed|allow|allowed|go|proceed|true|accept|accepted"
    r"|granted|lgtm|ship it)\b"
    r"|\bas if (?:the |my )?(?:human|owner|user|boss) (?:said|approved|agreed)"
    r"|\b(?:you|the concierge|the assistant|the bot|the ai) (?:should|must|will|can|may) (?:just )?"
    r"(?:approve|answer|reply|say|confirm|accept|allow)"
    r"|\bif you are (?:an? )?(?:ai|bot|assistant|language model|llm|concierge)"
    r"|\b(?:auto|automatic(?:ally)?)[- ]?(?:approv\w*|answer\w*|accept\w*|confirm\w*)"
    r"|\bapproval (?:code|token|id)\b|\bauthori[sz]ation (?:code|token)\b"
    r"|\b(?:ignore|disregard|forget) (?:the |my |your )?(?:human|owner|user|boss)"
    r"|\b(?:you|we) (?:already )?(?:approved|agreed to|signed off on|ok d|okayed) (?:it|this|that)"
    r"|\b(?:i am|i m|this is|sent by|from|on behalf of|speaking for) (?:the |your )?(?:owner|human"
    r"|admin|administrator|boss|operator)\b"
    r"|\bskip (?:asking|the human|the owner|escalat\w*|approval|review|confirmation)\b"
    r"|\bno (?:human |manual )?(?:review|approval|sign off|confirmation) (?:is )?(?:needed|required"
    r"|necessary)\b|\bmark (?:it|this|that) (?:as )?(?:approved|done|accepted)\b"
    r"|\bapproved\s*(?:=|is)\s*true\b|\bwithout (?:waking|bothering|pinging|involving) (?:the )?"
    r"(?:human|owner|user|boss)"
    # the human's word claimed in other words: "per the owner's OK", "as agreed with the
    # lead", "you have the authority to answer"
    rf"|\b{_HOLDER} s? ?(?:ok|okay|go ahead|blessing|approval|sign off|permission|green light"
    r"|consent|say so|nod|thumbs up)\b"
    rf"|\b(?:agreed|approved|confirmed|cleared|discussed|settled|decided|signed off|okayed)"
    rf" (?:with|by) {_HOLDER}\b"
    r"|\byou (?:have|ve|got|hold|are given) (?:the |full |my |our )?(?:authority|clearance|mandate"
    r"|go ahead|green light|blessing|sign off|say so)\b"
    rf"|\b(?:{_HOLDER}|the human|the user) (?:said|says|told (?:me|us)|gave|has given|signalled)"
    r"(?: (?:me|us))?(?: to)? (?:go|yes|ok|okay|go ahead|proceed|continue|fine|the go ahead)\b"
    r"|\bapproval (?:is )?(?:granted|given|obtained|received|confirmed)\b"
)


def injection(code: str) -> str | None:
    """The phrase addressed to the concierge itself, if the code-form text carries one (also
    spelled with leetspeak or letter by letter)."""
    words = words_form(code)
    found = (
        _INJECTION.search(words)
        or _INJECTION.search(deobfuscated_form(code))
        or _MARKUP_INJECTION.search(code)
        or _AUTHORITY.search(words)
        or _AUTHORITY.search(deobfuscated_form(code))
    )
    return found.group(0) if found else None
