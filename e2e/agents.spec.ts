// Issue 5 end to end in Chromium: an admin's agent with a knowledge source and the MCP "everything" server
// (asking before every tool), and a model that is a local server speaking the OpenAI streaming protocol
// with scripted turns. Ada mentions the agent through the composer's '@' menu (offered as an agent, marked
// AI); the answer thinks, asks her to approve a tool on a card (Grace, in another browser, only sees whom
// it waits for), runs it, streams its text in (a partial text is seen before the final one) and cites
// the handbook with a footnote that opens the passage. Then Ada messages the agent directly from the
// new-message dialog: a failure at the model ends in a clear note, the next message is answered. Screenshots at desktop and phone width, light and dark.
import { type OpenAIScriptServer, startOpenAIScriptServer } from '../tests/fixtures/openai-script-server.ts';
import { SHOTS_ON, shot } from './support/screenshots.ts';
import { LanternServer } from './support/server.ts';
import { addTeammate } from './support/team.ts';
import { expect, type Locator, type Page, test } from './support/test.ts';
import {
  composer,
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  scrollTo,
  signInThroughUi,
} from './support/ui.ts';

const SHOTS = process.env.AGENT_SHOTS_DIR ?? 'e2e/artifacts';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const HANDBOOK =
  'Releases go out every Tuesday after the change review. A hotfix needs approval from two maintainers and ' +
  'a rollback plan written in the ticket. Production deploys are frozen during the last week of December.';
/** The model's final answer, in the chunks it streams (a pause between them). */
const ANSWER = [
  'Releases ship **every Tuesday**, ',
  'once the change review is done [1]. ',
  'I also checked the deploy tool: it answered as expected.',
];

/** The "everything" server's echo tool, as the model is offered it. */
const TOOL_NAME = 'echo';

let model: OpenAIScriptServer;
let server: LanternServer;

test.beforeAll(async () => {
  model = await startOpenAIScriptServer();
  server = await LanternServer.create({
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'sk-test-not-a-real-key',
    OPENAI_MODEL: 'scripted',
    // The "everything" reference server is a test fixture: allowlisted for this test only.
    MCP_STDIO_ALLOWLIST: 'mcp-server-memory,mcp-server-everything stdio',
  });
  await server.start();
});

test.afterAll(async () => {
  await server?.dispose();
  await model?.close();
});

interface AgentResponse {
  agent: { id: string };
}
interface SourceResponse {
  knowledgeSource: { id: string; status: string };
}
interface SourcesResponse {
  knowledgeSources: { id: string; status: string; error: string | null }[];
}

function agentAnswer(page: Page, text?: string): Locator {
  const answers = messageList(page).filter({ has: page.getByTestId('agent-answer') });
  return text ? answers.filter({ hasText: text }) : answers;
}

async function mentionAgent(page: Page, target: string, query: string, name: string, question: string) {
  const box = composer(page, target);
  await box.click();
  await box.pressSequentially(`@${query}`);
  const menu = page.getByRole('listbox', { name: 'Mention someone' });
  const option = menu.getByRole('option', { name: new RegExp(name) });
  await expect(option).toBeVisible();
  // Offered as an agent (type hint) and marked AI, not as a person.
  await expect(option.getByText('Agent', { exact: true })).toBeVisible();
  await expect(option.getByTestId('ai-badge')).toBeVisible();
  await option.click();
  await box.pressSequentially(question);
  await box.press('Enter');
  await expect(box).toHaveText('');
}

async function shoot(page: Page, name: string) {
  // Only for the screenshots: resizing remounts the list, and under load bringing the answer back into view
  // raced the remount (a CI failure of this spec's screenshot step, not of what it tests).
  if (!SHOTS_ON) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      await expect(composer(page, '#general')).toBeVisible();
      // The phone layout mounts the list anew: bring the newest answer of the new one into view.
      await scrollTo(agentAnswer(page).last());
      await expect(agentAnswer(page).last()).toBeInViewport();
      await page.mouse.move(0, viewport.height - 1);
      await shot(page, `${SHOTS}/agents-${name}-${size}-${scheme}.png`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(DESKTOP);
}

test('an agent mentioned in a channel thinks, asks to run a tool, streams a cited answer; a direct message works too', async ({
  browser,
}) => {
  test.slow(); // several browsers or many steps: three times the default limit
  const ada = await browser.newContext({ viewport: DESKTOP });
  const page = await ada.newPage();
  await signInThroughUi(page, server, 'ada@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Acme Release Crew');
  const { token } = await server.signInApi('ada@example.com');
  const base = `/api/institutions/${workspaceId}`;
  await server.api('PUT', '/api/users', token, { name: 'Ada Lovelace' });

  // The admin's set-up (its screens are tested elsewhere): the agent, its handbook, its tools.
  const { agent } = await server.api<AgentResponse>('POST', `${base}/agents`, token, {
    name: 'Release Helper',
    instructions: 'Answer questions about how we ship.',
    approveAllTools: true,
  });
  const { knowledgeSource } = await server.api<SourceResponse>(
    'POST',
    `${base}/agents/${agent.id}/knowledge-sources`,
    token,
    { type: 'text', title: 'Release handbook', text: HANDBOOK },
  );
  await expect
    .poll(async () => {
      const { knowledgeSources } = await server.api<SourcesResponse>(
        'GET',
        `${base}/agents/${agent.id}/knowledge-sources`,
        token,
      );
      return knowledgeSources.find((s) => s.id === knowledgeSource.id)?.status;
    })
    .toBe('ready');
  await server.api('POST', `${base}/agents/${agent.id}/mcp-connections`, token, {
    name: 'Deploy tools',
    transport: { type: 'stdio', command: 'mcp-server-everything', args: ['stdio'] },
    environmentVariables: {},
  });
  const grace = await addTeammate(server, workspaceId, token, 'grace@example.com', 'Grace Hopper');

  // The model's script: think a while, then call the echo tool; after the tool, stream the answer slowly,
  // its last chunk held until the test has seen the first part.
  let sendLastChunk = () => {};
  const lastChunk = new Promise<void>((open) => {
    sendLastChunk = open;
  });
  model.play(
    { toolCalls: [{ name: TOOL_NAME, arguments: { message: 'deploy status' } }], delayMs: 2_500 },
    { text: ANSWER, delayMs: 300, lastChunkAfter: lastChunk },
  );

  // Grace watches #general in her own browser.
  const graceContext = await browser.newContext({ viewport: DESKTOP });
  const gracePage = await graceContext.newPage();
  await signInThroughUi(gracePage, server, grace.email);
  await expect(gracePage).toHaveURL(new RegExp(`/client/${workspaceId}`));
  await openChannelFromSidebar(gracePage, 'general');
  await expect(gracePage.getByRole('button', { name: '2 members' })).toBeVisible();

  // Ada's directory now holds the agent (it was created after her page loaded).
  await page.reload();
  await openChannelFromSidebar(page, 'general');
  await mentionAgent(page, '#general', 'rele', 'Release Helper', ' when do releases ship?');

  const answer = agentAnswer(page);
  await expect(answer).toHaveCount(1);
  // Asked in a public channel it was not in, the agent joined it: Grace's count follows live.
  await expect(gracePage.getByRole('button', { name: '3 members' })).toBeVisible();
  await expect(answer.getByTestId('ai-badge')).toBeVisible();
  await expect(answer.getByTestId('agent-thinking')).toHaveText('Thinking…');

  // The tool waits for Ada (who asked); Grace sees only whom it waits for.
  const card = answer.getByTestId('tool-call');
  await expect(card).toHaveAttribute('data-status', 'awaiting_approval');
  await expect(card).toContainText(TOOL_NAME);
  await expect(card).toContainText('via Deploy tools');
  await expect(card.getByText('"message": "deploy status"')).toBeVisible();
  const graceCard = agentAnswer(gracePage).getByTestId('tool-call');
  await expect(graceCard).toContainText('Waiting for Ada Lovelace to approve');
  await expect(graceCard.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Reject' })).toBeVisible();
  await shoot(page, 'approval');
  await card.getByRole('button', { name: 'Approve' }).click();

  // The tool runs, then the text streams in: the first part is seen before the rest has arrived.
  await expect(card).toHaveAttribute('data-status', 'succeeded');
  await expect(card).toContainText('Echo: deploy status');
  const body = answer.getByTestId('agent-answer');
  await expect(body).toContainText('Releases ship every Tuesday');
  // The last chunk is held back: the answer so far shows, still streaming.
  await expect(body).toHaveAttribute('data-agent-status', 'streaming');
  expect(await body.textContent()).not.toContain('it answered as expected');
  await page.mouse.move(0, DESKTOP.height - 1);
  await shot(page, `${SHOTS}/agents-streaming-desktop-light.png`);
  sendLastChunk();
  await expect(body).toContainText('it answered as expected');
  await expect(body).toHaveAttribute('data-agent-status', 'done');

  // The [1] marker is a footnote; it opens the passage it cites.
  const footnote = answer.getByRole('button', { name: 'Source 1: Release handbook' }).first();
  await expect(footnote).toBeVisible();
  await expect(answer.getByTestId('sources')).toContainText('Release handbook');
  await footnote.click();
  const passage = page.getByRole('dialog', { name: 'Release handbook' });
  await expect(passage.getByTestId('passage')).toContainText('A hotfix needs approval from two maintainers');
  await shot(page, `${SHOTS}/agents-passage-desktop-light.png`);
  await passage.getByRole('button', { name: 'Close' }).click();
  await expect(passage).toHaveCount(0);

  // Grace saw the same answer arrive live.
  await expect(agentAnswer(gracePage)).toContainText('it answered as expected');
  await expect(graceCard).toHaveAttribute('data-status', 'succeeded');

  // Photographs: the finished answer, and a second question still thinking below it.
  model.play({ toolCalls: [{ name: TOOL_NAME, arguments: { message: 'later' } }], delayMs: 20_000 });
  await mentionAgent(page, '#general', 'rele', 'Release Helper', ' and hotfixes?');
  await expect(agentAnswer(page)).toHaveCount(2);
  await expect(agentAnswer(page).last().getByTestId('agent-thinking')).toBeVisible();
  await shoot(page, 'channel');

  // A direct message with the agent, started from the new-message dialog: any message there asks it.
  // (The thinking run above has taken its turn of the script by now.)
  await expect.poll(() => model.requests.length).toBe(3);
  // Its first try fails at the model (a clear note, never silence); the second is answered.
  model.play(
    { status: 400, body: JSON.stringify({ error: { message: 'The model is overloaded' } }) },
    { text: 'Happy to help with releases.' },
  );
  await page.getByRole('button', { name: 'New direct message' }).click();
  const picker = page.getByRole('dialog', { name: 'New direct message' });
  const agentRow = picker.getByRole('button', { name: /Release Helper/ });
  await expect(agentRow.getByTestId('ai-badge')).toBeVisible();
  await agentRow.click();
  const dm = composer(page, 'Release Helper');
  await expect(dm).toBeVisible();
  await dm.pressSequentially('hi there');
  await dm.press('Enter');
  const failed = agentAnswer(page).getByRole('alert');
  await expect(failed).toContainText('Sorry, I could not');
  await page.mouse.move(0, DESKTOP.height - 1);
  await shot(page, `${SHOTS}/agents-direct-failed-desktop-light.png`);
  await dm.pressSequentially('are you there?');
  await dm.press('Enter');
  await expect(agentAnswer(page, 'Happy to help with releases.')).toBeVisible();

  await graceContext.close();
  await ada.close();
});
