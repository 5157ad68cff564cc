"""The markers in languages other than English: Spanish, Portuguese, French, German,
Italian, Russian, Chinese, Japanese and Korean.

Many sessions are not in English (LABELLING.md), and the English markers
(:mod:`~gitmem.capture.extract.heuristic.markers`) found nothing in them but what the closing
report says. Here are the same markers as each language writes them in engineering prose:
the labels of a status section or a line ("Próximos pasos:", "Offene Punkte:", "次のステップ：",
"다음 단계:"), and the phrases that make a sentence a decision ("hemos decidido",
"wir haben uns für … entschieden", "使うことに決めました", "사용하기로 결정했습니다"), an open
loop (what is left uncommitted, still to do, still failing, waiting) or an uncertainty ("no
estoy seguro", "nicht sicher", "不确定", "확실하지 않습니다").

They are written from each language's common usage, not from any transcript, and keep to
what English marks too: a word that means "decision" or "next steps" as a label, a verb of
deciding in the first person or the passive, a negated "sure". Chinese and Japanese do not
put spaces between words, so their phrases are matched as written, without word bounds.
Each phrase comes with the strings one of which every match holds (the first pass reads a
line only when it holds one).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from gitmem.core.folding import KANA_HAN, UNSPACED
from gitmem.core.items import Kind

LABEL_WORDS = {
    "decision": (
        r"decisi[oó]n(?:es)?(?:\s+tomadas?)?|decis[ãa]o|decis[õo]es(?:\s+tomadas)?|"
        r"d[ée]cisions?(?:\s+prises?)?|entscheidung(?:en)?|beschl[üu]sse|decisioni(?:\s+prese)?|"
        r"решени[ея]|决定|決定|决策|決策|決定事項|方針|결정\s*사항|결정"
    ),
    "open_loop": (
        r"pendientes?|tareas\s+pendientes|pr[óo]ximos\s+pasos|siguientes\s+pasos|por\s+hacer|"
        r"pendentes?|pend[êe]ncias|pr[óo]ximos\s+passos|tarefas\s+pendentes|"
        r"[àa]\s+faire|prochaines\s+[ée]tapes|[ée]tapes\s+suivantes|reste\s+[àa]\s+faire|"
        r"offene\s+punkte|offene\s+aufgaben|n[äa]chste\s+schritte|noch\s+offen|ausstehend|"
        r"prossimi\s+passi|da\s+fare|in\s+sospeso|"
        r"следующие\s+шаги|осталось\s+сделать|нужно\s+сделать|"
        r"下一步|后续步骤|後續步驟|待办事项|待辦事項|待办|待辦|未完成|剩余工作|剩餘工作|"
        r"次のステップ|次の手順|残タスク|残作業|未完了|未対応|今後の(?:作業|課題|タスク)|"
        r"다음\s*단계|남은\s*작업|할\s*일|미완료|후속\s*작업"
    ),
    "uncertainty": (
        r"preguntas\s+abiertas|dudas|riesgos|perguntas\s+em\s+aberto|d[úu]vidas|riscos|"
        r"questions\s+ouvertes|incertitudes?|risques|offene\s+fragen|unklarheiten|risiken|"
        r"domande\s+aperte|dubbi|rischi|открытые\s+вопросы|риски|"
        r"未决问题|未決問題|待确认|待確認|风险|風險|疑问|疑問|"
        r"未解決の(?:問題|質問)|懸念(?:点|事項)?|不明点|"
        r"미해결\s*(?:질문|문제)|우려\s*사항|리스크"
    ),
}
"""Per kind, the words of a label (a heading or "LABEL:" at a line's start), as the English
ones in :data:`~gitmem.capture.extract.heuristic.markers._LABEL_WORDS`."""

_DECISION = (
    # es, pt, it, fr: a verb of deciding or choosing in the first person plural or singular
    ("decid", r"\b(?:hemos|he|hab[íi]amos)\s+decidido\b|\bdecidimos\b|\bdecidi\b"),
    ("optamos", r"\boptamos\s+por\b"),
    ("abbiamo|ho deciso", r"\babbiamo\s+(?:deciso|scelto|optato)\b|\bho\s+deciso\b"),
    (
        "décid|opté|choisi",
        r"\b(?:nous\s+avons|on\s+a|j['’]ai)\s+(?:d[ée]cid[ée]|opt[ée]|choisi)\b",
    ),
    # de: "wir haben uns (für X) entschieden", "wir bleiben bei X"
    (
        "entschieden|bleiben bei",
        r"\b(?:wir\s+haben|ich\s+habe)\s+(?:uns\s+)?(?:[\w./`-]+\s+){0,6}entschieden\b|"
        r"\bwir\s+bleiben\s+bei\b",
    ),
    # ru
    ("решили|договорились|решено", r"(?<!\w)(?:решили|договорились|решено)(?!\w)"),
    # zh: "(we) decided to …" opening the sentence or after a first person or "already",
    # "finally" ("这个函数决定使用哪个缓存" describes what a function decides)
    (
        "决定|決定|选择了|選擇了|采用了|採用了",
        r"(?:^[*_\s]*|我们|我們|我|已经?|已經|最终|最終|最后|最後)(?:决定|決定)"
        r"(?:了)?(?:使用|采用|採用|用|不|把|将|將|保留|改为|改為|改用|继续|繼續)|"
        r"(?:我们|我們|我)(?:选择了|選擇了|采用了|採用了)",
    ),
    # ja: 〜ことに決めました / 〜にしました / 決定しました / 採用しました
    (
        "決め|決定し|ことにし|採用し",
        r"(?:ことに|ことと|に|と)決めました|決定しました|ことにしました|採用しました",
    ),
    # ko: 〜하기로 결정했습니다 / 〜기로 했습니다 / 〜로 결정
    ("기로|결정했|채택", r"기로\s*(?:결정)?\s*했|결정했|채택했"),
)

_OPEN_LOOP = (
    # what is left uncommitted or unpushed
    (
        "commit|未提交|コミット|커밋",
        r"\bsin\s+(?:hacer\s+)?commit(?:ear)?\b|\bsem\s+commit\b|\bn[ãa]o\s+commitad[oa]s?\b|"
        r"\bnon\s+commit(?:t)?[ée]s?\b|\bnicht\s+(?:committet|eingecheckt|gepusht)\b|"
        r"\bnon\s+committat[oi]\b|не\s+закоммичен|未提交|未推送|未コミット|"
        r"コミット(?:されて|して)いない|미커밋|커밋(?:되지|하지)\s*않은",
    ),
    # still to do, still failing
    (
        "todav|aún|aun|queda|falta",
        r"\b(?:todav[íi]a|a[úu]n)\s+(?:falta|faltan|queda|quedan|hay\s+que|no\s+(?:est[áa]|"
        r"funciona|compila|pasa))\b|\bqueda(?:n)?\s+pendientes?\b|\bfalta\s+por\s+hacer\b",
    ),
    (
        "ainda|pendente",
        r"\bainda\s+(?:falta|faltam|precisa|[ée]\s+preciso|n[ãa]o\s+(?:est[áa]|funciona))\b|"
        r"\bfica\s+pendente\b",
    ),
    (
        "reste|pas encore|toujours",
        r"\bil\s+reste\s+[àa]\b|\breste\s+[àa]\s+faire\b|"
        r"\bpas\s+encore\s+(?:fait|termin[ée]|impl[ée]ment[ée]|corrig[ée]|commit[ée])\b|"
        r"\b[ée]choue\s+toujours\b|\btoujours\s+en\s+[ée]chec\b",
    ),
    (
        "noch|steht",
        r"\bnoch\s+(?:offen|zu\s+tun|nicht\s+(?:erledigt|fertig|umgesetzt|behoben|"
        r"implementiert|gemergt))\b|\bsteht\s+noch\s+aus\b|\bfehlt\s+noch\b|"
        r"\bschl[äa]gt\b[^.!?]{0,40}?\bnoch\s+fehl\b|"
        r"\b(?:funktioniert|l[äa]uft|klappt|baut)\b[^.!?]{0,40}?\bnoch\s+nicht\b",
    ),
    (
        "ancora|resta",
        r"\bancora\s+da\s+(?:fare|sistemare|completare)\b|\bresta\s+da\s+fare\b|"
        r"\bnon\s+ancora\s+(?:fatto|implementato|risolto|completato)\b",
    ),
    (
        "нужно|пока|осталось",
        r"ещ[её]\s+нужно|пока\s+не\s+(?:сделан|готов|исправлен|реализован)|"
        r"осталось\s+(?:сделать|только|доделать)",
    ),
    (
        "还|還|仍需|尚未",
        r"还需要|還需要|仍需|尚未(?:完成|实现|實現|修复|修復|合并|合併|解决|解決)|"
        r"还没有?(?:完成|实现|修复|合并|解决)|還沒有?(?:完成|實現|修復|合併|解決)",
    ),
    (
        "まだ|未完了|未対応|対応が必要",
        r"まだ[^。\n]{0,20}?(?:必要|残って|終わって(?:い)?ない|できて(?:い)?ない|"
        r"直って(?:い)?ない|失敗)|未完了|未対応|対応が必要",
    ),
    (
        "아직|남은|필요합니다",
        r"아직\s*[^.\n]{0,20}?(?:필요|남아|되지\s*않|못했|실패)|남은\s*작업|추가\s*작업이\s*필요",
    ),
    # waiting on someone or something
    (
        "대기|待ち|待機|等待|待合并|待合併|待审|待審",
        r"대기\s*중|待ち(?:です|の状態|状態)|待機中|等待(?:中|审核|審核|合并|合併|确认|確認|CI)|"
        r"待合并|待合併|待审核|待審核",
    ),
)

_UNCERTAINTY = (
    (
        "segur|claro|probado|verificado|comprobado",
        r"\bno\s+estoy\s+segur[oa]\b|\bno\s+est[áa]\s+claro\b|"
        r"\bno\s+(?:lo\s+)?he\s+(?:probado|verificado|comprobado)\b|\bsin\s+verificar\b",
    ),
    (
        "certeza|claro|testei|verifiquei",
        r"\bn[ãa]o\s+tenho\s+certeza\b|\bn[ãa]o\s+est[áa]\s+claro\b|"
        r"\bn[ãa]o\s+(?:testei|verifiquei)\b",
    ),
    (
        "sûr|sur|certain|clair|testé|vérifié",
        r"\bje\s+ne\s+suis\s+pas\s+(?:s[ûu]re?|certaine?)\b|\bpas\s+s[ûu]r\b|"
        r"\bpas\s+clair\b|\bnon\s+(?:test[ée]|v[ée]rifi[ée])\b",
    ),
    (
        "sicher|unklar|getestet|verifiziert|geprüft",
        r"\bnicht\s+(?:ganz\s+|mehr\s+)?sicher\b|\bunklar\b|"
        r"\bnicht\s+(?:getestet|verifiziert|gepr[üu]ft)\b|\bungetestet\b",
    ),
    (
        "sicur|chiaro|testato|verificato",
        r"\bnon\s+sono\s+sicur[oa]\b|\bnon\s+[èe]\s+chiaro\b|\bnon\s+(?:testato|verificato)\b",
    ),
    ("уверен|неясно|непонятно|проверено", r"не\s+уверен|неясно|непонятно|не\s+проверено"),
    (
        "确定|確定|清楚|验证|驗證|测试|測試",
        r"不确定|不確定|不太确定|不太確定|不清楚|尚不清楚|未验证|未驗證|未经测试|未經測試",
    ),
    (
        "確信|わかりません|分かりません|不明|未確認|未検証",
        r"確信が(?:持て|な)|わかりません|分かりません|不明です|未確認|未検証",
    ),
    (
        "확실|확신|모르|불확실|확인되지|검증되지",
        r"확실하지\s*않|확신(?:이|할\s*수)\s*없|잘\s*모르|불확실|확인되지\s*않|검증되지\s*않",
    ),
)

_USER_RULE_GATES = (
    *("no ", "nunca", "siempre", "sólo", "solo", "solamente", "não", "nao", "sempre", "apenas"),
    *("n'", "n’", "ne ", "jamais", "toujours", "seulement", "kein", "nie", "immer", "nur"),
    *("bitte", "non ", "mai", "не ", "никогда", "всегда", "только", "不要", "必须", "必須"),
    *("只用", "只能", "始终", "始終", "永远", "永遠", "禁止", "ないで", "しないこと", "必ず"),
    *("常に", "絶対", "말고", "마세요", "하지 마", "쓰지 마", "항상", "반드시", "절대"),
)
USER_RULE = (
    # es, pt, it, fr, de, ru: a prohibition or "never", "always", "only" opening the sentence
    r"^[*_\s]*(?:(?:no|não|nao|non|не)\s+(?:uses|usar|utilices|hagas|toques|cambies|borres|"
    r"elimines|a[ñn]adas|pongas|fa[çc]a|mexa|altere|apague|usare|fare|toccare|"
    r"modificare|используй|используйте|трогай|меняй|удаляй)|nunca|siempre|s[óo]lo|solamente|"
    r"n[ãa]o\s+use|sempre|apenas|jamais|toujours|seulement|n['’](?:utilise|ajoute|touche|modifie)[sz]?\s+pas|"
    r"kein(?:e|en|er)?(?!\s+(?:problem|ahnung|sorge|ursache|thema))|nie|niemals|immer(?!\s+noch)|nur|"
    r"bitte\s+(?:nicht|kein\w*|immer|nur)|mai|никогда|всегда|только(?!\s+что))(?!\w)"
    # zh, ja, ko: a prohibition or "always", "must", "only" anywhere (the verb ends these)
    r"|不要|必须|必須|只用|只能用|始终|始終|永远不要|永遠不要|禁止|"
    r"ないで(?!しょう|す)|しないこと|必ず|常に|絶対に|"
    r"말고|마세요|하지\s*마|쓰지\s*마|항상|반드시|절대로?"
)
"""A user's rule in another language (as :data:`~gitmem.capture.extract.heuristic.markers.
_USER_RULE_START_RE` reads an English one): "Kein ORM", "No uses ORM", "ORMは使わないで",
"ORM은 쓰지 말고", "不要用ORM". Matched in the lowercased sentence of a user only."""
USER_RULE_GATES = "|".join(_USER_RULE_GATES)

PHRASES: tuple[tuple[Kind, str, str], ...] = (
    *((Kind.DECISION, gates, pattern) for gates, pattern in _DECISION),
    *((Kind.OPEN_LOOP, gates, pattern) for gates, pattern in _OPEN_LOOP),
    *((Kind.UNCERTAINTY, gates, pattern) for gates, pattern in _UNCERTAINTY),
)
"""(kind, the strings one of which every match holds, joined by "|", pattern): matched in
the lowercased sentence, as the English phrases are."""

CJK_RE = re.compile(f"[{UNSPACED}]")
"""A Chinese, Japanese or Korean character: a text with none holds no marker of theirs."""

NEEDLES = tuple(
    dict.fromkeys(
        needle
        for needle in (
            *(gate for _, gates, _ in PHRASES for gate in gates.split("|")),
            *_USER_RULE_GATES,
            # the labels' own words, for a line that is only a label
            *("决", "決", "方針", "결정", "下一步", "后续", "後續", "待办", "待辦", "未完成"),
            *("剩余", "剩餘", "次のステップ", "次の手順", "残タスク", "残作業", "未完了"),
            *("未対応", "今後の", "다음", "남은", "할 일", "미완료", "후속", "未决", "未決"),
            *("待确认", "待確認", "风险", "風險", "疑问", "疑問", "未解決", "懸念", "不明点"),
            *("미해결", "우려", "리스크"),
        )
        if CJK_RE.search(needle)
    )
)
"""What a line must hold before the Chinese, Japanese and Korean markers are looked for:
those scripts write words without spaces between them, so they are found as substrings (and
only in a text that holds one of their characters, :data:`CJK_RE`)."""

WORDS = frozenset(
    (
        # es, pt, it, fr: deciding, choosing
        *("decidimos", "decidido", "decidi", "decidí", "optamos", "deciso", "scelto", "optato"),
        *("décidé", "opté", "choisi", "entschieden", "bleiben"),
        # still to do, waiting, failing
        *("todavía", "todavia", "aún", "aun", "queda", "quedan", "falta", "faltan", "ainda"),
        *("pendente", "pendiente", "pendientes", "pendentes", "reste", "encore", "toujours"),
        *("échoue", "noch", "steht", "fehlt", "schlägt", "ancora", "resta", "commitear"),
        *("commitado", "commitados", "commité", "commités", "committé", "committet"),
        *("eingecheckt", "gepusht", "committato", "committati"),
        # not sure, not tested
        *("seguro", "segura", "claro", "probado", "verificado", "comprobado", "certeza"),
        *("testei", "verifiquei", "sûr", "sûre", "certaine", "clair", "testé", "vérifié"),
        *("sicher", "unklar", "getestet", "verifiziert", "geprüft", "ungetestet", "sicuro"),
        *("sicura", "chiaro", "testato", "verificato"),
        # a user's rule
        *("nunca", "siempre", "sólo", "solamente", "não", "nao", "sempre", "apenas", "jamais"),
        *("seulement", "kein", "keine", "keinen", "keiner", "nie", "niemals", "immer", "nur"),
        *("bitte", "mai", "n'utilise", "n’utilise", "n'ajoute", "n’ajoute", "n'utilisez"),
        *("n’utilisez", "usar", "utilices", "hagas", "toques", "cambies", "borres", "elimines"),
        *("añadas", "pongas", "faça", "faca", "mexa", "altere", "apague", "usare", "toccare"),
        *("modificare", "используй", "используйте", "трогай", "меняй", "удаляй"),
        # labels
        *("decisión", "decisiones", "decisão", "decisões", "décision", "décisions"),
        *("entscheidung", "entscheidungen", "beschlüsse", "beschlusse", "decisioni"),
        *("próximos", "proximos", "siguientes", "pendências", "pendencias", "passos", "étapes"),
        *("etapes", "offene", "nächste", "nachste", "ausstehend", "prossimi", "sospeso"),
        *("preguntas", "dudas", "riesgos", "perguntas", "dúvidas", "duvidas", "riscos"),
        *("incertitude", "incertitudes", "risques", "fragen", "unklarheiten", "risiken"),
        *("domande", "dubbi", "rischi"),
        # ru
        *("решили", "договорились", "решено", "нужно", "пока", "осталось", "уверен"),
        *("неясно", "непонятно", "проверено", "никогда", "всегда", "только", "не"),
        *("следующие", "решения", "решение", "вопросы", "риски", "закоммичен"),
    )
)
"""Words (as the first pass cuts a line into words) one of which a sentence in Spanish,
Portuguese, French, German, Italian or Russian holds before their markers are looked for;
none is an English word, so an English text never pays for them."""


_NARRATION_START_RE = re.compile(
    # es, pt, fr, it, de, ru: "let me", "I'm going to", "I have read …" opening the sentence
    r"(?:(?:ahora|primero|bien|vale|agora|maintenant|d['’]abord|ora|jetzt|zuerst|сейчас|"
    r"теперь)[,!.]?\s+)?"
    r"(?:d[ée]jame|perm[íi]teme|voy\s+a|vamos\s+a\s+(?:ver|revisar|comprobar)|"
    r"(?:ya\s+)?he\s+(?:revisado|analizado|le[íi]do|explorado|examinado)|"
    r"deix[ae][- ]me|vou\s+(?:verificar|analisar|ver|ler|come[çc]ar)|"
    r"j[áa]\s+(?:revisei|analisei|li)|"
    r"laisse[zs]?-moi|je\s+vais|j['’]ai\s+(?:analys[ée]|examin[ée]|lu|parcouru)|"
    r"lasciami|fammi|ho\s+(?:analizzato|esaminato|letto|esplorato)|"
    r"lass\s+mich|ich\s+werde|ich\s+schaue|"
    r"давайте\s+(?:посмотрим|проверим)|позвольте|я\s+(?:проверю|посмотрю|изучу|проанализирую))(?!\w)"
    # zh: "let me", "I'll first …" opening the sentence
    r"|(?:现在|首先|接下来|接下來|好的)?[，,]?\s*(?:让我|讓我|我来|我來|我先)",
    re.IGNORECASE,
)
_NARRATION_END_RE = re.compile(
    # ja, ko: the verb that ends the sentence says what the assistant does next ("確認します",
    # "확인하겠습니다") or that it has read what it looked at ("把握しました", "파악했습니다")
    r"(?:(?:確認|調査|分析|検討|チェック)(?:します|してみます|していきます)|把握しました|"
    r"(?:하|보|읽)겠습니다|(?:파악|분석|검토|조사|탐색)(?:을|를)?\s*(?:했습니다|완료했습니다|완료)|"
    r"살펴(?:봤|보았)습니다)[\s.。!！*_]*$"
)


def narrates(sentence: str) -> bool:
    """Does the assistant's *sentence*, in one of these languages, say what it does next
    or that it has read what it was looking at ("Déjame revisar …", "Voy a …", "让我看看 …",
    "確認します", "변경 내용을 파악했습니다", "섹션도 확인하겠습니다"), as "Let me …", "I'll …",
    "I've reviewed …" do in English? Raises nothing."""
    text = sentence.strip(" \t*_")
    if _NARRATION_START_RE.match(text) is not None:
        return True
    return not text.isascii() and _NARRATION_END_RE.search(text) is not None


def foreign(low: str, words: Iterable[str]) -> bool:
    """May the lowercased sentence *low*, cut into *words*, hold a marker of these
    languages? Raises nothing."""
    return not WORDS.isdisjoint(words) or (not low.isascii() and CJK_RE.search(low) is not None)


DONE = (
    r"\b(?:hecho|listo|resuelto|arreglado|corregido|completado|terminado|implementado|"
    r"feito|pronto|resolvido|corrigido|conclu[íi]do|fait|termin[ée]e?|corrig[ée]e?|"
    r"r[ée]solue?|impl[ée]ment[ée]e?|erledigt|behoben|fertig|abgeschlossen|umgesetzt|"
    r"implementiert|fatto|completato|risolto|corretto|implementato|"
    r"сделано|готово|исправлено|реализовано|выполнено)\b"
    r"|已完成|完成了|已修复|已修復|已解决|已解決|已合并|已合併|已实现|已實現|"
    r"已经?[^，。！？\s]{0,8}?(?:完成|修复|修復|解决|解決|合并|合併|实现|實現|添加|更新|删除|移除)|"
    r"(?:修复|修復|解决|解決|合并|合併|实现|實現|添加|更新|删除|移除)了|"
    r"完了しました|修正しました|対応しました|解決しました|実装しました|マージしました|"
    r"(?:更新|追加|削除|作成|変更)しました|"
    r"완료(?:했|됐|되었|됨|$|\.)|해결(?:했|됐|되었|됨)|수정(?:했|완료)|머지(?:했|됐|됨)|"
    r"병합(?:했|됐|됨)|구현(?:했|완료)|(?:추가|삭제|변경|업데이트)(?:했|됐|되었|됨)"
)
"""A later statement says a loop is done ("Hecho", "erledigt", "已修复", "修正しました",
"완료했습니다"), as the English done words (:mod:`~gitmem.capture.extract.heuristic.lastword`)."""
SETTLED = (
    r"\b(?:fusionad[oa]s?|mergead[oa]s?|mesclad[oa]s?|fusionn[ée]e?s?|gemerged?t|"
    r"zusammengef[üu]hrt|mergiat[oa]|смержен\w*|слит[аоы]?|cerrad[oa]s?|fechad[oa]s?|"
    r"ferm[ée]e?s?|geschlossen|chius[oa]|закрыт[аоы]?)\b|"
    r"已合并|已合併|合并了|合併了|已关闭|已關閉|マージ済み?|マージ(?:しました|されました)|"
    r"クローズ(?:済み|しました|されました)|(?:머지|병합)\s*(?:됨|됐|되었|했|완료)|닫(?:힘|혔|았|혀\s*있)"
)
"""A PR or issue said to be merged or closed ("PR #12: ya fusionado", "PR #12 已合并",
"PR #12 이미 머지됨", "닫혀있음"), as English "merged" and "closed" say it
(:func:`gitmem.core.claims.references`): a statement of its state, not something left open."""
NOT_DONE = (
    r"\b(?:no|todav[íi]a|a[úu]n|pendientes?|falta|nicht|noch|pas|encore|n[ãa]o|ainda|"
    r"non|ancora|не|ещ[её])\b|未|没有|沒有|还|還|尚|待|まだ|아직|않|못"
)
"""A statement with a done word still says something is not done."""
ALL_DONE = (
    r"\b(?:todo\s+(?:est[áa]\s+)?(?:hecho|listo|terminado|completado)|tudo\s+(?:est[áa]\s+)?"
    r"(?:feito|pronto|conclu[íi]do)|tout\s+est\s+(?:fait|termin[ée])|alles\s+(?:ist\s+)?"
    r"(?:erledigt|fertig)|tutto\s+(?:[èe]\s+)?(?:fatto|completato)|вс[её]\s+(?:сделано|готово))\b"
    r"|全部(?:完成|搞定)|都已完成|すべて完了|全て完了|모두\s*완료|전부\s*완료"
)
"""A report saying everything is done."""


def cjk_bigrams(text: str) -> set[str]:
    """The pairs of neighbouring Chinese, Japanese or Korean characters in *text*: what
    two statements in those scripts share when they are about the same thing (their words
    are not cut by spaces). Raises nothing."""
    found: set[str] = set()
    for run in _CJK_RUN_RE.findall(_PARTICLES_RE.sub(" ", text)):
        found.update(run[i : i + 2] for i in range(len(run) - 1))
    return found


_CJK_RUN_RE = re.compile(f"[{UNSPACED}]{{2,}}")
_PARTICLES_RE = re.compile("[的了给把被和与及或也都就还又已吗呢吧]")
"""Chinese characters that only join words (of, to, and, already …): a pair across one
is no word of either statement ("给订单表" and "订单表的" share "订单" and "单表", not
"给订" or "表的")."""


def word_count(text: str) -> int:
    """The words of *text* as a reader counts them: those between spaces, and in a run of
    Chinese or Japanese characters (written without spaces) one word for every two of
    them. Raises nothing."""
    count = 0
    for token in text.split():
        ideographs = len(_IDEOGRAPH_RE.findall(token)) if not token.isascii() else 0
        count += max(1, ideographs // 2) if ideographs >= 2 else 1
    return count


_IDEOGRAPH_RE = re.compile(f"[{KANA_HAN}]")
