<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About RegDesk</source>
        <translation>RegDesk 정보</translation>
    </message>
    <message>
        <source>Ask regulation and HR questions as a named person and see, tool call by tool call, how the answer was reached. The agent has no rights of its own: the platform&apos;s policies for that person decide what it sees.</source>
        <translation>실제 사람의 이름으로 규정·인사 질문을 하고, 답이 어떻게 나왔는지 도구 호출 하나하나까지 확인하세요. 에이전트에게는 자체 권한이 없습니다. 무엇을 볼 수 있는지는 그 사람에게 적용된 플랫폼 정책이 정합니다.</translation>
    </message>
    <message>
        <source>Data platform:</source>
        <translation>데이터 플랫폼:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>모델:</translation>
    </message>
    <message>
        <source>Built with:</source>
        <translation>사용 기술:</translation>
    </message>
</context>
<context>
    <name>AccessMatrixModel</name>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
</context>
<context>
    <name>ApprovalDialog</name>
    <message>
        <source>Approve a change?</source>
        <translation>변경을 승인할까요?</translation>
    </message>
    <message>
        <source>The agent, acting as &lt;b&gt;{persona}&lt;/b&gt;, wants to make a change. Nothing is written unless you approve.</source>
        <translation>에이전트가 &lt;b&gt;{persona}&lt;/b&gt; 님의 권한으로 변경을 요청합니다. 승인하기 전에는 아무것도 기록되지 않습니다.</translation>
    </message>
    <message>
        <source>Retrying with the same key replays the change instead of repeating it.</source>
        <translation>같은 키로 다시 시도하면 변경이 중복되지 않고 이전 결과가 재사용됩니다.</translation>
    </message>
    <message>
        <source>Optional; a denial&apos;s reason is told to the agent</source>
        <translation>선택 사항입니다. 거부 사유는 에이전트에게 전달됩니다</translation>
    </message>
    <message>
        <source>Persona:</source>
        <translation>사용자:</translation>
    </message>
    <message>
        <source>Tool:</source>
        <translation>도구:</translation>
    </message>
    <message>
        <source>Ar&amp;guments:</source>
        <translation>인자(&amp;G):</translation>
    </message>
    <message>
        <source>Idempotency key:</source>
        <translation>멱등성 키:</translation>
    </message>
    <message>
        <source>&amp;Reason:</source>
        <translation>사유(&amp;R):</translation>
    </message>
    <message>
        <source>&amp;Deny</source>
        <translation>거부(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Approve</source>
        <translation>승인(&amp;A)</translation>
    </message>
    <message>
        <source>Enter or Esc denies. Alt+A approves.</source>
        <translation>Enter나 Esc를 누르면 거부됩니다. 승인하려면 Alt+A를 누르세요.</translation>
    </message>
    <message>
        <source>{persona} denied this change.</source>
        <translation>{persona} 님이 이 변경을 거부했습니다.</translation>
    </message>
    <message>
        <source>Approved in RegDesk.</source>
        <translation>RegDesk에서 승인했습니다.</translation>
    </message>
</context>
<context>
    <name>AuditLogDialog</name>
    <message>
        <source>Time (UTC)</source>
        <translation>시각 (UTC)</translation>
    </message>
    <message>
        <source>Persona</source>
        <translation>사용자</translation>
    </message>
    <message>
        <source>User</source>
        <translation>사용자 ID</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>이벤트</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>동작</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>도구</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>판정</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>승인 여부</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>사유</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>인자</translation>
    </message>
    <message>
        <source>Idempotency key</source>
        <translation>멱등성 키</translation>
    </message>
    <message>
        <source>Previous hash</source>
        <translation>이전 해시</translation>
    </message>
    <message>
        <source>Hash</source>
        <translation>해시</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>예</translation>
    </message>
    <message>
        <source>no</source>
        <translation>아니요</translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>감사 로그</translation>
    </message>
    <message>
        <source>Filter by any text (persona, tool, …)</source>
        <translation>아무 텍스트로나 걸러 보기 (사용자, 도구 등)</translation>
    </message>
    <message>
        <source>&amp;Filter:</source>
        <translation>필터(&amp;F):</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>새로 고침(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>내보내기(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>닫기(&amp;C)</translation>
    </message>
    <message>
        <source>No audit records yet.</source>
        <translation>아직 감사 기록이 없습니다.</translation>
    </message>
    <message>
        <source>The chain could not be checked in this build.</source>
        <translation>이 빌드에서는 해시 체인을 검증할 수 없습니다.</translation>
    </message>
    <message>
        <source>✔ Hash chain intact: {count} records, none changed or removed.</source>
        <translation>✔ 해시 체인 정상: 기록 {count}건, 변경되거나 삭제된 기록이 없습니다.</translation>
    </message>
    <message>
        <source>✘ Hash chain broken at line {line}: the log was edited, reordered or cut after it was written. Records from that line on cannot be trusted.</source>
        <translation>✘ {line}번째 줄에서 해시 체인이 끊겼습니다. 기록된 뒤에 로그가 수정되었거나 순서가 바뀌었거나 잘렸습니다. 이 줄부터의 기록은 신뢰할 수 없습니다.</translation>
    </message>
    <message>
        <source>{count} lines are not valid records.</source>
        <translation>{count}개 줄은 올바른 기록이 아닙니다.</translation>
    </message>
    <message>
        <source>Export audit log</source>
        <translation>감사 로그 내보내기</translation>
    </message>
    <message>
        <source>JSON lines, verifiable (*.jsonl);;CSV for spreadsheets (*.csv)</source>
        <translation>검증 가능한 JSON Lines (*.jsonl);;스프레드시트용 CSV (*.csv)</translation>
    </message>
</context>
<context>
    <name>ChatDelegate</name>
    <message>
        <source>Message text</source>
        <translation>메시지 텍스트</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <source>Conversation</source>
        <translation>대화</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>복사</translation>
    </message>
    <message>
        <source>Copy as Markdown</source>
        <translation>Markdown으로 복사</translation>
    </message>
    <message>
        <source>Select text</source>
        <translation>텍스트 선택</translation>
    </message>
</context>
<context>
    <name>ComparisonStrip</name>
    <message>
        <source>Comparison</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>Differences between personas</source>
        <translation>사용자 간 차이</translation>
    </message>
    <message>
        <source>Export comparison…</source>
        <translation>비교 결과 내보내기…</translation>
    </message>
    <message>
        <source>Comparing when every pane has answered…</source>
        <translation>모든 창의 답변이 끝나면 비교합니다…</translation>
    </message>
    <message>
        <source>Ask all panes the same question to compare the answers.</source>
        <translation>모든 창에 같은 질문을 하면 답변을 비교할 수 있습니다.</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>중지됨</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>Not compared, no answer: {0}</source>
        <translation>답변이 없어 비교하지 않음: {0}</translation>
    </message>
    <message>
        <source>Fewer than two panes answered: nothing to compare.</source>
        <translation>답변한 창이 둘보다 적어 비교할 것이 없습니다.</translation>
    </message>
    <message>
        <source>Only in &lt;b&gt;{0}&lt;/b&gt;:</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt;에만 있음:</translation>
    </message>
    <message>
        <source>Rows per tool</source>
        <translation>도구별 행 수</translation>
    </message>
    <message>
        <source>documents</source>
        <translation>문서</translation>
    </message>
    <message>
        <source>versions</source>
        <translation>차수</translation>
    </message>
    <message>
        <source>articles</source>
        <translation>조항</translation>
    </message>
    <message>
        <source>dates</source>
        <translation>날짜</translation>
    </message>
    <message>
        <source>days</source>
        <translation>일수</translation>
    </message>
    <message>
        <source>amounts</source>
        <translation>금액</translation>
    </message>
    <message>
        <source>counts</source>
        <translation>건수</translation>
    </message>
    <message>
        <source>periods</source>
        <translation>기간</translation>
    </message>
    <message>
        <source>percentages</source>
        <translation>비율</translation>
    </message>
    <message>
        <source>other figures</source>
        <translation>기타 수치</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>성공</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>결과 없음</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>거부됨</translation>
    </message>
    <message>
        <source>not called</source>
        <translation>호출 안 함</translation>
    </message>
    <message>
        <source>The answers mention the same figures and documents.</source>
        <translation>답변에 나온 수치와 문서가 같습니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt; calls: {1}</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt; 호출: {1}</translation>
    </message>
</context>
<context>
    <name>ConversationSidebar</name>
    <message>
        <source>New chat</source>
        <translation>새 대화</translation>
    </message>
    <message>
        <source>Start a new conversation (Ctrl+N)</source>
        <translation>새 대화 시작 (Ctrl+N)</translation>
    </message>
    <message>
        <source>Search conversations…</source>
        <translation>대화 검색…</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>대화 검색</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>대화 목록</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>삭제</translation>
    </message>
    <message>
        <source>No conversations yet.</source>
        <translation>아직 대화가 없습니다.</translation>
    </message>
    <message>
        <source>Nothing found.</source>
        <translation>찾은 결과가 없습니다.</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>열기</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>이름 바꾸기</translation>
    </message>
</context>
<context>
    <name>CredentialStore</name>
    <message>
        <source>No system keyring is available on this computer, so passwords and the API key are kept in memory only and are forgotten when RegDesk closes. Nothing is written to disk.</source>
        <translation>이 컴퓨터에는 시스템 키링이 없어 비밀번호와 API 키를 메모리에만 보관하며, RegDesk를 닫으면 잊힙니다. 디스크에는 아무것도 기록하지 않습니다.</translation>
    </message>
</context>
<context>
    <name>DemoPersonas</name>
    <message>
        <source>Employee · Development (DEV) · 20170003</source>
        <translation>직원 · 개발팀 (DEV) · 20170003</translation>
    </message>
    <message>
        <source>Sees only their own HR records and the regular regulations; contact numbers are masked.</source>
        <translation>본인의 인사 기록과 일반 규정만 볼 수 있습니다. 연락처는 마스킹됩니다.</translation>
    </message>
    <message>
        <source>Department head (개발팀 부장) · Development (DEV) · 20150010</source>
        <translation>부서장 (개발팀 부장) · 개발팀 (DEV) · 20150010</translation>
    </message>
    <message>
        <source>Sees the HR records of the whole DEV department and the regular regulations; contact numbers are masked.</source>
        <translation>개발팀(DEV) 전체의 인사 기록과 일반 규정을 볼 수 있습니다. 연락처는 마스킹됩니다.</translation>
    </message>
    <message>
        <source>HR officer · Human Resources (HR) · 20090001</source>
        <translation>인사 담당자 · 인사팀 (HR) · 20090001</translation>
    </message>
    <message>
        <source>Sees every HR record and the restricted regulations (대외비).</source>
        <translation>모든 인사 기록과 대외비 규정을 볼 수 있습니다.</translation>
    </message>
</context>
<context>
    <name>EvidenceDialog</name>
    <message>
        <source>not available to you or not present.</source>
        <translation>조회 권한이 없거나 존재하지 않는 문서입니다.</translation>
    </message>
    <message>
        <source>Cited version: {0}</source>
        <translation>인용된 차수: {0}</translation>
    </message>
    <message>
        <source>Effective {0} → {1}</source>
        <translation>시행 {0} → {1}</translation>
    </message>
    <message>
        <source>in force</source>
        <translation>시행 중</translation>
    </message>
    <message>
        <source>The document states it takes effect on {0}, but the approved effective date is {1}. The approved date applies.</source>
        <translation>문서 본문에는 {0} 시행으로 적혀 있지만 승인된 시행일은 {1}입니다. 승인된 시행일이 적용됩니다.</translation>
    </message>
    <message>
        <source>This version is not in the version history you can see.</source>
        <translation>이 차수는 볼 수 있는 개정 이력에 없습니다.</translation>
    </message>
    <message>
        <source>Article text as this persona&apos;s search returned it in the turn.</source>
        <translation>이 페르소나가 해당 대화에서 검색해 받은 조문입니다.</translation>
    </message>
    <message>
        <source>Article text as this persona&apos;s search returns it now.</source>
        <translation>이 페르소나로 지금 다시 검색해 받은 조문입니다.</translation>
    </message>
    <message>
        <source>No article text of this version was returned to you.</source>
        <translation>이 차수의 조문은 조회 결과로 받은 것이 없습니다.</translation>
    </message>
    <message>
        <source>Versions</source>
        <translation>개정 이력</translation>
    </message>
    <message>
        <source>version</source>
        <translation>차수</translation>
    </message>
    <message>
        <source>effective</source>
        <translation>시행일</translation>
    </message>
    <message>
        <source>until</source>
        <translation>종료일</translation>
    </message>
    <message>
        <source>stated</source>
        <translation>문서상 시행일</translation>
    </message>
    <message>
        <source>summary</source>
        <translation>요약</translation>
    </message>
    <message>
        <source>Evidence: {0}</source>
        <translation>근거: {0}</translation>
    </message>
    <message>
        <source>Loading {0}…</source>
        <translation>{0} 불러오는 중…</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <source>truncated</source>
        <translation>잘림</translation>
    </message>
    <message>
        <source>injection suspected</source>
        <translation>지시문 주입 의심</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>도구</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>인자</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>판정</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>답변</translation>
    </message>
    <message>
        <source>Citations</source>
        <translation>인용</translation>
    </message>
    <message>
        <source>Differences</source>
        <translation>차이점</translation>
    </message>
    <message>
        <source>Elapsed</source>
        <translation>소요 시간</translation>
    </message>
    <message>
        <source>No answer.</source>
        <translation>답변이 없습니다.</translation>
    </message>
    <message>
        <source>No differences found.</source>
        <translation>차이점이 없습니다.</translation>
    </message>
    <message>
        <source>Persona</source>
        <translation>사용자</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>질문</translation>
    </message>
    <message>
        <source>RegDesk comparison</source>
        <translation>RegDesk 비교</translation>
    </message>
    <message>
        <source>RegDesk turn</source>
        <translation>RegDesk 대화</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>시작 시각</translation>
    </message>
    <message>
        <source>Tool calls</source>
        <translation>도구 호출</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>토큰</translation>
    </message>
    <message>
        <source>answered</source>
        <translation>답변함</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>중지됨</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>성공</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>결과 없음</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>거부됨</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>중단됨</translation>
    </message>
    <message>
        <source>allow</source>
        <translation>읽기 허용</translation>
    </message>
    <message>
        <source>approval_required</source>
        <translation>승인 필요</translation>
    </message>
    <message>
        <source>deny</source>
        <translation>거부</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <source>value</source>
        <translation>값</translation>
    </message>
    <message>
        <source>present</source>
        <translation>있는 쪽</translation>
    </message>
    <message>
        <source>absent</source>
        <translation>없는 쪽</translation>
    </message>
    <message>
        <source>tool</source>
        <translation>도구</translation>
    </message>
    <message>
        <source>counts</source>
        <translation>행 수</translation>
    </message>
    <message>
        <source>statuses</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>doc_no</source>
        <translation>문서번호</translation>
    </message>
    <message>
        <source>version</source>
        <translation>차수</translation>
    </message>
    <message>
        <source>article</source>
        <translation>조항</translation>
    </message>
    <message>
        <source>date</source>
        <translation>날짜</translation>
    </message>
    <message>
        <source>days</source>
        <translation>일수</translation>
    </message>
    <message>
        <source>amount</source>
        <translation>금액</translation>
    </message>
    <message>
        <source>count</source>
        <translation>건수</translation>
    </message>
    <message>
        <source>period</source>
        <translation>기간</translation>
    </message>
    <message>
        <source>percent</source>
        <translation>비율</translation>
    </message>
    <message>
        <source>number</source>
        <translation>기타 수치</translation>
    </message>
    <message>
        <source>row_count</source>
        <translation>행 수</translation>
    </message>
    <message>
        <source>call_status</source>
        <translation>호출 상태</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>행 수</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>소요 시간</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>비고</translation>
    </message>
    <message>
        <source>effective {date}</source>
        <translation>{date} 시행</translation>
    </message>
    <message>
        <source>RegDesk conversation</source>
        <translation>RegDesk 대화 기록</translation>
    </message>
</context>
<context>
    <name>HistoryStore</name>
    <message>
        <source>Could not save the conversation history to {path}: {reason}. RegDesk keeps working, and earlier conversations are safe, but this one will not be there after a restart.</source>
        <translation>대화 기록을 {path}에 저장하지 못했습니다: {reason}. RegDesk는 계속 동작하고 이전 대화도 안전하지만, 이번 대화는 다시 시작하면 남아 있지 않습니다.</translation>
    </message>
</context>
<context>
    <name>LoginDialog</name>
    <message>
        <source>This is an administrator account. RegDesk never runs the agent with administrator rights; sign in as a regular person instead.</source>
        <translation>관리자 계정입니다. RegDesk는 관리자 권한으로 에이전트를 실행하지 않습니다. 일반 사용자로 로그인하세요.</translation>
    </message>
    <message>
        <source>The server did not accept this user name and password.</source>
        <translation>서버가 이 사용자 이름과 비밀번호를 받아들이지 않았습니다.</translation>
    </message>
    <message>
        <source>The server at {url} did not answer in time. Try again.</source>
        <translation>{url} 서버가 제시간에 응답하지 않았습니다. 다시 시도하세요.</translation>
    </message>
    <message>
        <source>Could not reach the server at {url}. Check the address and your network.</source>
        <translation>{url} 서버에 연결할 수 없습니다. 주소와 네트워크를 확인하세요.</translation>
    </message>
    <message>
        <source>Signing in failed: {message}</source>
        <translation>로그인에 실패했습니다: {message}</translation>
    </message>
    <message>
        <source>Sign in to RegDesk</source>
        <translation>RegDesk 로그인</translation>
    </message>
    <message>
        <source>The agent works with exactly this person&apos;s permissions.</source>
        <translation>에이전트는 정확히 이 사람의 권한으로만 동작합니다.</translation>
    </message>
    <message>
        <source>e.g. hong</source>
        <translation>예: hong</translation>
    </message>
    <message>
        <source>&amp;Remember password</source>
        <translation>비밀번호 기억(&amp;R)</translation>
    </message>
    <message>
        <source>Stored in the system keyring, never in a settings file.</source>
        <translation>시스템 키링에만 저장되며 설정 파일에는 절대 기록되지 않습니다.</translation>
    </message>
    <message>
        <source>No system keyring on this computer: RegDesk cannot remember passwords (it keeps them in memory until it closes).</source>
        <translation>이 컴퓨터에는 시스템 키링이 없어 RegDesk가 비밀번호를 기억할 수 없습니다(종료할 때까지 메모리에만 둡니다).</translation>
    </message>
    <message>
        <source>Sign in as {user}</source>
        <translation>{user}(으)로 로그인</translation>
    </message>
    <message>
        <source>&amp;Server:</source>
        <translation>서버(&amp;S):</translation>
    </message>
    <message>
        <source>&amp;User name:</source>
        <translation>사용자 이름(&amp;U):</translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation>비밀번호(&amp;P):</translation>
    </message>
    <message>
        <source>Demo personas:</source>
        <translation>데모 사용자:</translation>
    </message>
    <message>
        <source>All, side by side</source>
        <translation>모두 나란히</translation>
    </message>
    <message>
        <source>Presenter mode: sign in every demo persona and compare them (F5)</source>
        <translation>발표 모드: 데모 페르소나 모두로 로그인해 나란히 비교합니다 (F5)</translation>
    </message>
    <message>
        <source>&amp;Sign in</source>
        <translation>로그인(&amp;S)</translation>
    </message>
    <message>
        <source>Enter the server address, starting with http:// or https://.</source>
        <translation>http:// 또는 https://로 시작하는 서버 주소를 입력하세요.</translation>
    </message>
    <message>
        <source>Enter a user name.</source>
        <translation>사용자 이름을 입력하세요.</translation>
    </message>
    <message>
        <source>Enter the password.</source>
        <translation>비밀번호를 입력하세요.</translation>
    </message>
    <message>
        <source>Signing in…</source>
        <translation>로그인 중…</translation>
    </message>
    <message>
        <source>Signed in, but the password could not be remembered: {e}</source>
        <translation>로그인했지만 비밀번호를 기억하지 못했습니다: {e}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>RegDesk</source>
        <translation>RegDesk</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>기본</translation>
    </message>
    <message>
        <source> Persona: </source>
        <translation> 사용자: </translation>
    </message>
    <message>
        <source>Persona switcher</source>
        <translation>사용자 전환</translation>
    </message>
    <message>
        <source>Sign in…</source>
        <translation>로그인…</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>새 대화</translation>
    </message>
    <message>
        <source>Split view</source>
        <translation>분할 보기</translation>
    </message>
    <message>
        <source>Present: hong, park, cho</source>
        <translation>발표: hong, park, cho</translation>
    </message>
    <message>
        <source>Sign in the demo personas hong, park and cho and compare them side by side, with persona cards (F5)</source>
        <translation>데모 페르소나 hong, park, cho로 한 번에 로그인해 페르소나 카드와 함께 나란히 비교합니다 (F5)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>중지</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>내보내기…</translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>감사 로그</translation>
    </message>
    <message>
        <source>Access matrix</source>
        <translation>접근 매트릭스</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>설정</translation>
    </message>
    <message>
        <source>About</source>
        <translation>정보</translation>
    </message>
    <message>
        <source>Compare: {0}</source>
        <translation>비교: {0}</translation>
    </message>
    <message>
        <source>View</source>
        <translation>보기</translation>
    </message>
    <message>
        <source>Persona cards</source>
        <translation>페르소나 카드</translation>
    </message>
    <message>
        <source>Larger text</source>
        <translation>글자 크게</translation>
    </message>
    <message>
        <source>Smaller text</source>
        <translation>글자 작게</translation>
    </message>
    <message>
        <source>Actual text size</source>
        <translation>원래 글자 크기</translation>
    </message>
    <message>
        <source>Nobody is signed in. Sign in first (Sign in… in the toolbar).</source>
        <translation>로그인한 사용자가 없습니다. 먼저 로그인하세요 (도구 모음의 로그인…).</translation>
    </message>
    <message>
        <source>Still answering the last question. Wait, or press Esc to stop it.</source>
        <translation>아직 이전 질문에 답하는 중입니다. 기다리거나 Esc로 중지하세요.</translation>
    </message>
    <message>
        <source>Editing an earlier question: Send replaces it and the answers after it.</source>
        <translation>이전 질문을 고치는 중입니다. 보내면 그 질문과 이후 답변이 바뀝니다.</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>대화 삭제</translation>
    </message>
    <message>
        <source>Delete this conversation and its answers? This cannot be undone.</source>
        <translation>이 대화와 답변을 삭제할까요? 되돌릴 수 없습니다.</translation>
    </message>
    <message>
        <source>Presenter mode needs the demo organisation (no password for {0}).</source>
        <translation>발표 모드에는 데모 조직이 필요합니다 ({0}의 암호가 없습니다).</translation>
    </message>
    <message>
        <source>Signing in {0}…</source>
        <translation>{0} 로그인 중…</translation>
    </message>
    <message>
        <source>Could not sign {0} in: {1}</source>
        <translation>{0}(으)로 로그인하지 못했습니다: {1}</translation>
    </message>
    <message>
        <source>Presenter mode: ask one question of hong, park and cho above.</source>
        <translation>발표 모드: 위 입력란에 질문 하나를 입력하면 hong, park, cho가 함께 답합니다.</translation>
    </message>
    <message>
        <source>Text size {0}%</source>
        <translation>글자 크기 {0}%</translation>
    </message>
    <message>
        <source>Nothing to export yet: ask a question first.</source>
        <translation>아직 내보낼 것이 없습니다. 먼저 질문하세요.</translation>
    </message>
    <message>
        <source>This turn is not saved, so it cannot be exported.</source>
        <translation>이 턴은 저장되지 않아 내보낼 수 없습니다.</translation>
    </message>
    <message>
        <source>Nothing to compare yet: ask all panes a question first.</source>
        <translation>아직 비교할 것이 없습니다. 먼저 모든 창에 질문하세요.</translation>
    </message>
    <message>
        <source>Exported to {0}</source>
        <translation>{0}에 내보냈습니다</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>질문</translation>
    </message>
    <message>
        <source>Ask a question</source>
        <translation>질문을 입력하세요</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>보내기</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>끝내기</translation>
    </message>
    <message>
        <source>Starting embedded platform and offline model…</source>
        <translation>내장 플랫폼과 오프라인 모델을 시작하는 중…</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>연결 중</translation>
    </message>
    <message>
        <source>Nobody is signed in yet</source>
        <translation>아직 로그인한 사용자가 없습니다</translation>
    </message>
    <message>
        <source>RegDesk answers as the persona you sign in as: each sees only what the platform allows that person. Sign in as one persona to ask, or as several to compare their answers side by side (Ctrl+T).</source>
        <translation>RegDesk는 로그인한 페르소나의 권한으로 답합니다. 각자 플랫폼이 허용한 정보만 볼 수 있습니다. 한 명으로 로그인해 질문하거나, 여러 명으로 로그인해 답변을 나란히 비교해 보세요(Ctrl+T).</translation>
    </message>
    <message>
        <source>Starting the platform…</source>
        <translation>플랫폼을 시작하는 중…</translation>
    </message>
    <message>
        <source>embedded platform</source>
        <translation>내장 플랫폼</translation>
    </message>
    <message>
        <source>platform</source>
        <translation>플랫폼</translation>
    </message>
    <message>
        <source>{0} {1} · model: {2}</source>
        <translation>{0} {1} · 모델: {2}</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>연결됨</translation>
    </message>
    <message>
        <source>Demo personas: hong (employee), park (manager), cho (HR officer).</source>
        <translation>데모 페르소나: hong(직원), park(관리자), cho(인사 담당자).</translation>
    </message>
    <message>
        <source>Offline demo model (deterministic, no LLM)</source>
        <translation>오프라인 데모 모델 (규칙 기반, LLM 미사용)</translation>
    </message>
    <message>
        <source>Could not start the services: {0}</source>
        <translation>서비스를 시작하지 못했습니다: {0}</translation>
    </message>
    <message>
        <source>offline</source>
        <translation>연결 끊김</translation>
    </message>
    <message>
        <source>The platform could not be started.</source>
        <translation>플랫폼을 시작하지 못했습니다.</translation>
    </message>
    <message>
        <source>The platform is not ready yet.</source>
        <translation>플랫폼이 아직 준비되지 않았습니다.</translation>
    </message>
    <message>
        <source>History unavailable: {0}</source>
        <translation>대화 기록을 쓸 수 없습니다: {0}</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>내보내기</translation>
    </message>
    <message>
        <source>Markdown (*.md);;JSON (*.json)</source>
        <translation>Markdown (*.md);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>내보내기 실패</translation>
    </message>
</context>
<context>
    <name>MatrixView</name>
    <message>
        <source>RegDesk — access matrix</source>
        <translation>RegDesk — 접근 매트릭스</translation>
    </message>
    <message>
        <source>Probe access</source>
        <translation>접근 확인</translation>
    </message>
    <message>
        <source>Questions file…</source>
        <translation>질문 파일…</translation>
    </message>
    <message>
        <source>…or type a question for every persona</source>
        <translation>…또는 모든 사용자에게 물을 질문을 입력하세요</translation>
    </message>
    <message>
        <source>Run questions</source>
        <translation>질문 실행</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>%v / %m cells</source>
        <translation>%v / %m 칸</translation>
    </message>
    <message>
        <source>Load baseline…</source>
        <translation>기준선 불러오기…</translation>
    </message>
    <message>
        <source>Save as baseline…</source>
        <translation>기준선으로 저장…</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>보고서 내보내기…</translation>
    </message>
    <message>
        <source>Only rows where personas differ</source>
        <translation>사용자별로 다른 행만</translation>
    </message>
    <message>
        <source>Sign in as the personas to compare, then probe.</source>
        <translation>비교할 사용자로 로그인한 뒤 확인하세요.</translation>
    </message>
    <message>
        <source>Personas:</source>
        <translation>사용자:</translation>
    </message>
    <message>
        <source>Access matrix</source>
        <translation>접근 매트릭스</translation>
    </message>
    <message>
        <source>Question matrix</source>
        <translation>질문 매트릭스</translation>
    </message>
    <message>
        <source>Access</source>
        <translation>접근</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>질문</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>변경</translation>
    </message>
    <message>
        <source>Click a cell to see the probe and its result.</source>
        <translation>칸을 누르면 확인 내용과 결과가 보입니다.</translation>
    </message>
    <message>
        <source>Cell detail</source>
        <translation>칸 상세</translation>
    </message>
    <message>
        <source>Could not read the questions: {0}</source>
        <translation>질문을 읽지 못했습니다: {0}</translation>
    </message>
    <message>
        <source>Probing as {0}…</source>
        <translation>{0}(으)로 확인하는 중…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>취소하는 중…</translation>
    </message>
    <message>
        <source>%v / %m — busy — waiting</source>
        <translation>%v / %m — 사용 중 — 기다리는 중</translation>
    </message>
    <message>
        <source>{0}: busy — waiting for the question running in the pane to end</source>
        <translation>{0}: 사용 중 — 창에서 실행 중인 질문이 끝나기를 기다리는 중</translation>
    </message>
    <message>
        <source>The matrix failed: {0}</source>
        <translation>매트릭스 실행 실패: {0}</translation>
    </message>
    <message>
        <source>No changes against {0}</source>
        <translation>{0} 대비 변경 없음</translation>
    </message>
    <message>
        <source>{0} cells: {1} denied, {2} masked, {3} hidden</source>
        <translation>{0}칸: 거부 {1}, 마스킹 {2}, 숨김 {3}</translation>
    </message>
    <message>
        <source>; {0} platform errors (not policy answers)</source>
        <translation>; 플랫폼 오류 {0}건 (정책에 따른 응답 아님)</translation>
    </message>
    <message>
        <source>; {0} question cells, {1} failing</source>
        <translation>; 질문 {0}칸, 실패 {1}</translation>
    </message>
    <message>
        <source>; {0} changes against the baseline</source>
        <translation>; 기준선 대비 변경 {0}</translation>
    </message>
    <message>
        <source>Questions (scenario YAML)</source>
        <translation>질문 (시나리오 YAML)</translation>
    </message>
    <message>
        <source>YAML (*.yaml *.yml)</source>
        <translation>YAML (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>기준선</translation>
    </message>
    <message>
        <source>Matrix run (*.json)</source>
        <translation>매트릭스 실행 결과 (*.json)</translation>
    </message>
    <message>
        <source>Baseline: {0}</source>
        <translation>기준선: {0}</translation>
    </message>
    <message>
        <source>Save as baseline</source>
        <translation>기준선으로 저장</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Saved {0}</source>
        <translation>{0} 저장함</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>보고서 내보내기</translation>
    </message>
    <message>
        <source>HTML report (*.html);;Markdown (*.md);;JSON (*.json)</source>
        <translation>HTML 보고서 (*.html);;Markdown (*.md);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Exported {0}</source>
        <translation>{0} 내보냄</translation>
    </message>
</context>
<context>
    <name>PersonaCard</name>
    <message>
        <source>Persona card</source>
        <translation>페르소나 카드</translation>
    </message>
</context>
<context>
    <name>PersonaPane</name>
    <message>
        <source>How many days of childcare leave do I have left?</source>
        <translation>나 육아휴직 며칠 남았어?</translation>
    </message>
    <message>
        <source>Which version of the childcare support rule is in force today?</source>
        <translation>육아지원규정은 지금 몇 차가 시행 중이야?</translation>
    </message>
    <message>
        <source>What is the lodging limit for a business trip to Seoul?</source>
        <translation>서울 출장 숙박비 한도가 얼마야?</translation>
    </message>
    <message>
        <source>Which regulations derive from the HR rule?</source>
        <translation>인사규칙을 근거로 만든 규정은 뭐가 있어?</translation>
    </message>
    <message>
        <source>Are any revisions pending for the annual leave regulation?</source>
        <translation>연차휴가 규정에 개정 예정인 게 있어?</translation>
    </message>
    <message>
        <source>How much childcare leave has my department used?</source>
        <translation>우리 부서 육아휴직 얼마나 썼어?</translation>
    </message>
    <message>
        <source>Turn progress</source>
        <translation>진행 상황</translation>
    </message>
    <message>
        <source>Choose another model in Settings…</source>
        <translation>설정에서 다른 모델 선택…</translation>
    </message>
    <message>
        <source>Now using {0}. Ask again.</source>
        <translation>이제 {0}을(를) 사용합니다. 다시 질문하세요.</translation>
    </message>
    <message>
        <source>No persona</source>
        <translation>사용자 없음</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>다시 생성</translation>
    </message>
    <message>
        <source>Edit and resend…</source>
        <translation>고쳐서 다시 보내기…</translation>
    </message>
    <message>
        <source>Export this turn…</source>
        <translation>이 턴 내보내기…</translation>
    </message>
    <message>
        <source>Cut off: the answer reached the output limit and is incomplete.</source>
        <translation>잘림: 답변이 출력 한도에 도달해 완전하지 않습니다.</translation>
    </message>
    <message>
        <source>Trying again with a larger output limit ({0})</source>
        <translation>더 큰 출력 한도로 다시 시도합니다 ({0})</translation>
    </message>
    <message>
        <source>retrying in {0} s ({1})</source>
        <translation>{0}초 후 다시 시도 ({1})</translation>
    </message>
    <message>
        <source>{0} tokens in, {1} out</source>
        <translation>입력 {0} 토큰, 출력 {1} 토큰</translation>
    </message>
    <message>
        <source> ({0} read from cache)</source>
        <translation> (캐시에서 {0} 읽음)</translation>
    </message>
    <message>
        <source> · ≈ ${0}</source>
        <translation> · 약 ${0}</translation>
    </message>
    <message>
        <source>{0} s</source>
        <translation>{0}초</translation>
    </message>
    <message>
        <source>{0} · not saved</source>
        <translation>{0} · 저장 안 됨</translation>
    </message>
    <message>
        <source>{0} Open Settings to fix it. ({1})</source>
        <translation>{0} 설정에서 고치세요. ({1})</translation>
    </message>
    <message>
        <source>The model endpoint refused this model or key.</source>
        <translation>모델 엔드포인트가 이 모델이나 키를 거부했습니다.</translation>
    </message>
    <message>
        <source>Your sign-in is no longer valid. Sign in again and ask again.</source>
        <translation>로그인이 더 이상 유효하지 않습니다. 다시 로그인한 뒤 질문해 주세요.</translation>
    </message>
    <message>
        <source>The platform could not be reached. Check that it runs, then ask again.</source>
        <translation>플랫폼에 연결할 수 없습니다. 플랫폼이 실행 중인지 확인한 뒤 다시 질문해 주세요.</translation>
    </message>
    <message>
        <source>The platform or the model took too long. Ask again.</source>
        <translation>플랫폼이나 모델의 응답이 너무 늦었습니다. 다시 질문해 주세요.</translation>
    </message>
    <message>
        <source>The model did not give a usable answer. Ask again.</source>
        <translation>모델이 쓸 수 있는 답을 주지 못했습니다. 다시 질문해 주세요.</translation>
    </message>
    <message>
        <source>The request was refused.</source>
        <translation>요청이 거절되었습니다.</translation>
    </message>
    <message>
        <source>RegDesk hit an internal error (a bug, logged). Ask again.</source>
        <translation>RegDesk 내부 오류가 났습니다(버그, 기록됨). 다시 질문하세요.</translation>
    </message>
    <message>
        <source>The turn failed.</source>
        <translation>대화가 실패했습니다.</translation>
    </message>
    <message>
        <source>{0} ({1}: {2})</source>
        <translation>{0} ({1}: {2})</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>저장하는 중…</translation>
    </message>
    <message>
        <source>Working… {0} s</source>
        <translation>처리 중… {0}초</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>중지했습니다.</translation>
    </message>
</context>
<context>
    <name>QuestionEdit</name>
    <message>
        <source>Enter to send, Shift+Enter for a new line</source>
        <translation>Enter: 보내기, Shift+Enter: 줄바꿈</translation>
    </message>
    <message>
        <source>Ctrl+Enter to send, Enter for a new line</source>
        <translation>Ctrl+Enter: 보내기, Enter: 줄바꿈</translation>
    </message>
</context>
<context>
    <name>QuestionMatrixModel</name>
    <message>
        <source>Question</source>
        <translation>질문</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>설정</translation>
    </message>
    <message>
        <source>Use the built-in &amp;demo platform</source>
        <translation>내장 데모 플랫폼 사용(&amp;D)</translation>
    </message>
    <message>
        <source>Data platform</source>
        <translation>데이터 플랫폼</translation>
    </message>
    <message>
        <source>Ontul &amp;URL:</source>
        <translation>Ontul 주소(&amp;U):</translation>
    </message>
    <message>
        <source>Offline demo model (deterministic, no LLM)</source>
        <translation>오프라인 데모 모델 (결정적 동작, LLM 아님)</translation>
    </message>
    <message>
        <source>Claude (Anthropic API)</source>
        <translation>Claude (Anthropic API)</translation>
    </message>
    <message>
        <source>Another Messages-API endpoint (Ollama, llama.cpp, a gateway)</source>
        <translation>다른 Messages API 엔드포인트 (Ollama, llama.cpp, 게이트웨이)</translation>
    </message>
    <message>
        <source>Newest Sonnet the endpoint lists</source>
        <translation>엔드포인트가 제공하는 최신 Sonnet</translation>
    </message>
    <message>
        <source>&amp;Load models</source>
        <translation>모델 불러오기(&amp;L)</translation>
    </message>
    <message>
        <source>Default (16,000)</source>
        <translation>기본값 (16,000)</translation>
    </message>
    <message>
        <source>The model&apos;s default</source>
        <translation>모델 기본값</translation>
    </message>
    <message>
        <source>A key is saved; type to replace it</source>
        <translation>저장된 키가 있습니다. 바꾸려면 새 키를 입력하세요</translation>
    </message>
    <message>
        <source>sk-ant-…</source>
        <translation>sk-ant-…</translation>
    </message>
    <message>
        <source>S&amp;how</source>
        <translation>표시(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Forget the saved key</source>
        <translation>저장된 키 삭제(&amp;F)</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>모델(&amp;M):</translation>
    </message>
    <message>
        <source>Endpoint &amp;URL:</source>
        <translation>엔드포인트 &amp;URL:</translation>
    </message>
    <message>
        <source>Model &amp;name:</source>
        <translation>모델 이름(&amp;N):</translation>
    </message>
    <message>
        <source>Output &amp;budget (tokens):</source>
        <translation>출력 한도(토큰)(&amp;B):</translation>
    </message>
    <message>
        <source>Thinking &amp;effort:</source>
        <translation>생각 수준(&amp;E):</translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation>API 키(&amp;K):</translation>
    </message>
    <message>
        <source>The key is stored in the system keyring, never in a settings file.</source>
        <translation>키는 시스템 키링에만 저장되며 설정 파일에는 절대 기록되지 않습니다.</translation>
    </message>
    <message>
        <source>Same as the system</source>
        <translation>시스템 설정 따르기</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>밝게</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>어둡게</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>모양</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>언어(&amp;L):</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>테마(&amp;T):</translation>
    </message>
    <message>
        <source>Enter &amp;sends the question (Shift+Enter: new line); off: Ctrl+Enter sends</source>
        <translation>Enter로 질문 보내기(&amp;S) (Shift+Enter: 줄바꿈, 끄면 Ctrl+Enter로 보내기)</translation>
    </message>
    <message>
        <source>A new server, model or language applies the next time RegDesk starts.</source>
        <translation>바꾼 서버, 모델, 언어는 RegDesk를 다시 시작하면 적용됩니다.</translation>
    </message>
    <message>
        <source>Asking the endpoint for its models…</source>
        <translation>엔드포인트에 모델 목록을 묻는 중…</translation>
    </message>
    <message>
        <source>This endpoint lists no models; type the model name.</source>
        <translation>이 엔드포인트는 모델 목록을 주지 않습니다. 모델 이름을 입력하세요.</translation>
    </message>
    <message>
        <source> — deprecated</source>
        <translation> — 지원 중단 예정</translation>
    </message>
    <message>
        <source>{0} models listed.</source>
        <translation>모델 {0}개를 찾았습니다.</translation>
    </message>
    <message>
        <source>Enter the Ontul URL, starting with http:// or https://, or use the built-in demo platform.</source>
        <translation>http:// 또는 https://로 시작하는 Ontul 주소를 입력하거나 내장 데모 플랫폼을 사용하세요.</translation>
    </message>
    <message>
        <source>Claude needs an API key.</source>
        <translation>Claude를 쓰려면 API 키가 필요합니다.</translation>
    </message>
    <message>
        <source>Enter the endpoint&apos;s URL, starting with http:// or https://.</source>
        <translation>http:// 또는 https://로 시작하는 엔드포인트 URL을 입력하세요.</translation>
    </message>
</context>
<context>
    <name>SplitCompareView</name>
    <message>
        <source>One question for every pane</source>
        <translation>모든 창에 같은 질문</translation>
    </message>
    <message>
        <source>Question for all panes</source>
        <translation>모든 창에 보낼 질문</translation>
    </message>
    <message>
        <source>Ask all</source>
        <translation>모두에게 질문</translation>
    </message>
    <message>
        <source>Add pane</source>
        <translation>창 추가</translation>
    </message>
</context>
<context>
    <name>SplitPane</name>
    <message>
        <source>Persona of this pane</source>
        <translation>이 창의 사용자</translation>
    </message>
    <message>
        <source>Remove this pane</source>
        <translation>이 창 닫기</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>중지됨</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>Not answered: left out of the comparison</source>
        <translation>답변 없음: 비교에서 제외됨</translation>
    </message>
    <message>
        <source>Sign in…</source>
        <translation>로그인…</translation>
    </message>
</context>
<context>
    <name>SuggestionsView</name>
    <message>
        <source>Ask about regulations, versions or your HR records.</source>
        <translation>규정, 개정 차수, 내 인사 기록에 대해 물어보세요.</translation>
    </message>
    <message>
        <source>Try one of these, or type your own question below:</source>
        <translation>아래 질문을 눌러 보거나, 아래 입력란에 직접 질문하세요:</translation>
    </message>
    <message>
        <source>Try one of these, or type your own question in the box above:</source>
        <translation>아래 예시를 고르거나 위 입력란에 직접 질문하세요:</translation>
    </message>
</context>
<context>
    <name>ToolCallDetail</name>
    <message>
        <source>Select a tool call to see its result.</source>
        <translation>도구 호출을 선택하면 결과를 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Result rows</source>
        <translation>결과 행</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>결과</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>인자</translation>
    </message>
    <message>
        <source>Raw result as the model saw it</source>
        <translation>모델이 받은 원문 결과</translation>
    </message>
    <message>
        <source>Raw (as the model saw it)</source>
        <translation>원문 (모델이 받은 그대로)</translation>
    </message>
    <message>
        <source>Reason: {0}</source>
        <translation>사유: {0}</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>실행 중…</translation>
    </message>
    <message>
        <source>Waiting for your approval.</source>
        <translation>승인을 기다리는 중입니다.</translation>
    </message>
    <message>
        <source>The model saw only the first part of this result (see Raw); shown here whole.</source>
        <translation>모델은 이 결과의 앞부분만 받았습니다(원문 탭 참고). 여기에는 전체를 보여 줍니다.</translation>
    </message>
</context>
<context>
    <name>ToolCallModel</name>
    <message>
        <source>approved</source>
        <translation>승인됨</translation>
    </message>
    <message>
        <source>denied by you</source>
        <translation>직접 거부함</translation>
    </message>
    <message>
        <source>needs approval</source>
        <translation>승인 필요</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>거부됨</translation>
    </message>
    <message>
        <source>truncated</source>
        <translation>잘림</translation>
    </message>
    <message>
        <source>⚠ injection?</source>
        <translation>⚠ 지시문 의심</translation>
    </message>
    <message>
        <source>running</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <source>awaiting approval</source>
        <translation>승인 대기</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>성공</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>결과 없음</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>거부됨</translation>
    </message>
    <message>
        <source>1 row</source>
        <translation>1행</translation>
    </message>
    <message>
        <source>{0} rows</source>
        <translation>{0}행</translation>
    </message>
    <message>
        <source>read</source>
        <translation>읽기</translation>
    </message>
    <message>
        <source>interrupted: the turn failed</source>
        <translation>중단됨: 대화 실패</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>중지됨</translation>
    </message>
</context>
<context>
    <name>ToolCallPanel</name>
    <message>
        <source>Tool calls</source>
        <translation>도구 호출</translation>
    </message>
    <message>
        <source>Tool calls appear here as the assistant works.</source>
        <translation>어시스턴트가 작업하는 동안 도구 호출이 여기에 표시됩니다.</translation>
    </message>
    <message>
        <source>Tool call detail</source>
        <translation>도구 호출 상세</translation>
    </message>
</context>
<context>
    <name>TranscriptModel</name>
    <message>
        <source>Thinking</source>
        <translation>생각</translation>
    </message>
    <message>
        <source>(not shown by the model)</source>
        <translation>(모델이 보여 주지 않음)</translation>
    </message>
</context>
</TS>
