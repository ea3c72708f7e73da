// The Policies page: the organization's policies; create, edit and delete them (each an ordinary stamped activity,
// which the organization's policies and root quorum decide on like any other); the expressions checked as they are
// typed by Keyhaven's check_policy (the server's own parser and vocabulary, so the page never disagrees with what
// create_policy accepts); and a dry run of the draft against a past activity (dry_run_policies), which saves nothing.
import { query } from './api.js';
import { perform } from './actions.js';
import { h, when } from './dom.js';

export const title = 'Policies';

const CHECK_DELAY_MILLIS = 250;
const EXPRESSIONS = [
  ['condition', 'Condition', 'What the policy applies to, e.g. activity.action == \'SIGN\'. Empty: everything.'],
  ['consensus', 'Consensus', 'Who must approve, e.g. approvers.any(u, u.id == \'…\'). Empty: no one in particular.'],
  ['time', 'Time window (optional)', 'When the policy is active. Empty: always.'],
];

/** Line and column of a 1-based position in a source that may span lines. */
function lineAndColumn(source, column) {
  const before = source.slice(0, Math.max(0, column - 1)).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** "column 12: expected ')'", and the line with a caret under the column. */
function problemItem(source, problem) {
  const at = lineAndColumn(source, problem.column);
  const lines = source.split('\n');
  const where = lines.length > 1 ? `line ${at.line}, column ${at.column}` : `column ${at.column}`;
  const text = lines[at.line - 1] ?? '';
  return h('li', {}, `${where}: ${problem.message}`,
    h('pre', { className: 'caret', 'aria-hidden': 'true' }, `${text}\n${' '.repeat(at.column - 1)}^`));
}

export async function render(context) {
  const { session } = context;
  let policies = [];
  const list = h('ul', { id: 'policy-list', className: 'cards' });
  const empty = h('p', { hidden: true }, 'No policies: only the root quorum may act, and users on their own '
    + 'credentials.');
  const editorSlot = h('div', { id: 'policy-editor-slot' });
  const createButton = h('button', { type: 'button', onclick: () => openEditor(null) }, 'Create policy');
  // The shell shows an error until the next page; an action that starts afresh clears it.
  const clearError = () => context.complain({ message: '' });

  const reload = async () => {
    try {
      policies = (await query(session, 'list_policies')).policies || [];
      if (!context.current()) return;
      list.replaceChildren(...policies.map(policyItem));
      empty.hidden = policies.length > 0;
    } catch (error) {
      context.complain(error);
    }
  };

  function policyItem(policy) {
    const nameId = `policy-${policy.policyId}`;
    const expressions = h('dl', { className: 'policy-fields' },
      h('dt', {}, 'Effect'), h('dd', {}, policy.effect),
      h('dt', {}, 'Condition'), h('dd', {}, h('code', {}, policy.condition || '(empty: everything)')),
      h('dt', {}, 'Consensus'), h('dd', {}, h('code', {}, policy.consensus || '(empty: no one in particular)')),
      policy.time ? [h('dt', {}, 'Time window'), h('dd', {}, h('code', {}, policy.time))] : null,
      policy.notes ? [h('dt', {}, 'Notes'), h('dd', {}, policy.notes)] : null,
      h('dt', {}, 'Id'), h('dd', {}, policy.policyId),
      h('dt', {}, 'Updated'), h('dd', {}, when(policy.updatedAt)));
    const confirm = h('div', { className: 'confirm', hidden: true });
    const actions = h('div', { className: 'actions' },
      h('button', { type: 'button', 'aria-describedby': nameId, onclick: () => openEditor(policy) }, 'Edit'),
      h('button', {
        type: 'button',
        'aria-describedby': nameId,
        onclick: () => askToDelete(policy, confirm, nameId),
      }, 'Delete'));
    return h('li', { dataset: { policyId: policy.policyId } },
      h('h3', { id: nameId, className: 'policy-name' }, policy.policyName), expressions, actions, confirm);
  }

  /** The confirmation step: nothing is deleted until "Confirm delete". */
  function askToDelete(policy, confirm, nameId) {
    const cancel = h('button', {
      type: 'button',
      onclick: () => {
        confirm.hidden = true;
        confirm.replaceChildren();
      },
    }, 'Cancel');
    const yes = h('button', {
      type: 'button',
      className: 'danger',
      'aria-describedby': nameId,
      onclick: async () => {
        yes.disabled = true;
        const deleted = await perform(context, `Delete policy ${policy.policyName}`, 'delete_policy',
          'ACTIVITY_TYPE_DELETE_POLICY', { policyId: policy.policyId });
        if (deleted) await reload();
        else yes.disabled = false;
      },
    }, 'Confirm delete');
    confirm.replaceChildren(h('p', { role: 'alert' },
      `Delete the policy “${policy.policyName}”? Activities it decided stay as they are; this cannot be undone.`),
    h('div', { className: 'actions' }, yes, cancel));
    confirm.hidden = false;
    cancel.focus();
  }

  /** The editor for a new policy (null) or an existing one, with live checking and the dry run. */
  async function openEditor(policy) {
    try {
      await showEditor(policy);
    } catch (error) {
      context.complain(error);
    }
  }

  async function showEditor(policy) {
    const editing = policy !== null;
    const heading = h('h3', { id: 'policy-editor-heading' },
      editing ? `Edit policy ${policy.policyName}` : 'Create policy');
    const name = h('input', { id: 'policy-name', name: 'policyName', required: true, autocomplete: 'off',
      value: editing ? policy.policyName : '' });
    const effect = h('select', { id: 'policy-effect', name: 'effect' },
      h('option', { value: 'EFFECT_ALLOW' }, 'Allow (EFFECT_ALLOW)'),
      h('option', { value: 'EFFECT_DENY' }, 'Deny (EFFECT_DENY)'));
    effect.value = editing ? policy.effect : 'EFFECT_ALLOW';
    const fields = {};
    const expressionControls = EXPRESSIONS.map(([field, label, hint]) => {
      const area = h('textarea', {
        id: `policy-${field}`, name: field, rows: 2, spellcheck: false, autocomplete: 'off',
        value: editing ? (policy[field] || '') : '',
        'aria-describedby': `policy-${field}-hint policy-${field}-problems`,
        oninput: () => scheduleCheck(),
      });
      const problems = h('ul', { id: `policy-${field}-problems`, className: 'problems', 'aria-live': 'polite' });
      fields[field] = { area, problems };
      return [h('label', { htmlFor: area.id }, label), area,
        h('p', { id: `policy-${field}-hint`, className: 'hint' }, hint), problems];
    });
    const notes = h('textarea', { id: 'policy-notes', name: 'notes', rows: 2, value: editing ? policy.notes : '' });
    const checked = h('p', { id: 'policy-check', className: 'hint', 'aria-live': 'polite' });

    let checks = 0;
    let timer = null;
    let lastProblems = [];
    const draft = () => ({
      effect: effect.value,
      condition: fields.condition.area.value,
      consensus: fields.consensus.area.value,
      time: fields.time.area.value,
    });
    // check_policy, as typed: the newest answer wins; an older one arriving late is dropped.
    const check = async () => {
      const mine = ++checks;
      const sent = draft();
      const { problems } = await query(session, 'check_policy', sent);
      if (mine !== checks || !context.current()) return null;
      for (const [field, { area, problems: out }] of Object.entries(fields)) {
        const own = problems.filter((p) => p.field === field);
        out.replaceChildren(...own.map((p) => problemItem(sent[field], p)));
        if (own.length) area.setAttribute('aria-invalid', 'true');
        else area.removeAttribute('aria-invalid');
      }
      checked.textContent = problems.length
        ? `${problems.length} ${problems.length === 1 ? 'problem' : 'problems'} in the expressions.`
        : 'The expressions are valid.';
      lastProblems = problems;
      return problems;
    };
    const scheduleCheck = () => {
      clearTimeout(timer);
      timer = setTimeout(() => check().catch((error) => context.complain(error)), CHECK_DELAY_MILLIS);
    };
    effect.addEventListener('change', scheduleCheck);

    const save = async (event) => {
      event.preventDefault();
      clearTimeout(timer);
      clearError();
      if (!name.value.trim()) {
        context.complain(new Error('A policy needs a name.'));
        name.focus();
        return;
      }
      let problems;
      try {
        problems = await check();
      } catch (error) {
        context.complain(error);
        return;
      }
      if (problems === null) problems = lastProblems;
      if (problems.length) {
        context.complain(new Error('Fix the problems shown under the expressions first.'));
        fields[problems[0].field].area.focus();
        return;
      }
      const d = draft();
      const saved = editing
        ? await perform(context, `Save policy ${name.value.trim()}`, 'update_policy', 'ACTIVITY_TYPE_UPDATE_POLICY_V2', {
          policyId: policy.policyId,
          policyName: name.value.trim(),
          policyEffect: d.effect,
          policyCondition: d.condition,
          policyConsensus: d.consensus,
          policyNotes: notes.value,
          time: d.time,
        })
        : await perform(context, `Create policy ${name.value.trim()}`, 'create_policy', 'ACTIVITY_TYPE_CREATE_POLICY_V3', {
          policyName: name.value.trim(),
          effect: d.effect,
          condition: d.condition,
          consensus: d.consensus,
          notes: notes.value,
          ...(d.time.trim() ? { time: d.time } : {}),
        });
      if (saved) {
        closeEditor();
        await reload();
        createButton.focus();
      }
    };

    const form = h('form', { id: 'policy-form', 'aria-labelledby': heading.id, novalidate: true },
      h('label', { htmlFor: name.id }, 'Name'), name,
      h('label', { htmlFor: effect.id }, 'Effect'), effect,
      expressionControls.flat(),
      h('label', { htmlFor: notes.id }, 'Notes'), notes,
      checked,
      h('div', { className: 'actions' },
        h('button', { type: 'submit' }, 'Save'),
        h('button', { type: 'button', onclick: () => { closeEditor(); createButton.focus(); } }, 'Cancel')));
    form.addEventListener('submit', save);

    editorSlot.replaceChildren(h('section', { id: 'policy-editor', className: 'editor', 'aria-labelledby': heading.id },
      heading, form, await dryRunPanel(policy, draft, name, notes)));
    createButton.hidden = true;
    name.focus();
    if (editing) scheduleCheck();
  }

  /** The dry run of the editor's draft: added (a new policy) or in the place of the policy edited. */
  async function dryRunPanel(policy, draft, name, notes) {
    const { activities } = await query(session, 'list_activities', { paginationOptions: { limit: '50' } });
    const choice = h('select', { id: 'dry-run-activity', name: 'activityId' },
      (activities || []).map((a) => h('option', { value: a.id },
        `${a.type} · ${a.status} · ${when(a.createdAt)} · ${a.id}`)));
    const others = policies.filter((p) => !policy || p.policyId !== policy.policyId);
    const leaveOut = others.map((p) => h('div', { className: 'check' },
      h('input', { type: 'checkbox', id: `leave-out-${p.policyId}`, value: p.policyId }),
      h('label', { htmlFor: `leave-out-${p.policyId}` }, p.policyName)));
    const result = h('div', { id: 'dry-run-result', 'aria-live': 'polite' });
    const button = h('button', {
      type: 'button',
      onclick: async () => {
        button.disabled = true;
        try {
          await dryRun();
        } finally {
          button.disabled = false;
        }
      },
    }, 'Dry run');

    const dryRun = async () => {
      clearError();
      if (!choice.value) {
        context.complain(new Error('Choose a past activity to dry-run against.'));
        return;
      }
      const d = draft();
      const draftPolicy = {
        ...(policy ? { policyId: policy.policyId } : {}),
        policyName: name.value.trim() || '(unnamed draft)',
        effect: d.effect,
        condition: d.condition,
        consensus: d.consensus,
        time: d.time,
        notes: notes.value,
      };
      const removedPolicyIds = leaveOut.map((row) => row.querySelector('input'))
        .filter((box) => box.checked).map((box) => box.value);
      try {
        const answer = await query(session, 'dry_run_policies', {
          activityId: choice.value, draftPolicy, removedPolicyIds,
        });
        result.replaceChildren(...dryRunResult(answer));
      } catch (error) {
        result.replaceChildren();
        context.complain(error);
      }
    };

    return h('section', { id: 'dry-run', className: 'dry-run', 'aria-labelledby': 'dry-run-heading' },
      h('h3', { id: 'dry-run-heading' }, 'Dry run'),
      h('p', { className: 'hint' }, policy
        ? 'Decides a past activity again with this draft in the place of the policy, and shows each policy\'s '
          + 'outcome. Nothing is saved.'
        : 'Decides a past activity again with this draft added to the policies, and shows each policy\'s '
          + 'outcome. Nothing is saved.'),
      h('label', { htmlFor: choice.id }, 'Past activity'), choice,
      others.length ? h('fieldset', {}, h('legend', {}, 'Leave out'), leaveOut) : null,
      h('div', { className: 'actions' }, button),
      result);
  }

  function dryRunResult(answer) {
    const decision = answer.decision;
    return [
      h('p', { id: 'dry-run-decision', className: 'decision' }, 'Decision: ',
        h('strong', { className: 'outcome' }, decision.outcome), ` — the activity would be ${decision.status}. `,
        decision.reason ? `(${decision.reason})` : null),
      h('p', { id: 'dry-run-recorded' }, `Recorded: ${answer.recorded.status}`
        + (answer.recorded.outcome ? ` (${answer.recorded.outcome})` : '')
        + `, decided at ${when(answer.evaluatedAt)}.`),
      answer.policyEvaluations.length
        ? h('ul', { id: 'dry-run-policies', className: 'policy-outcomes' }, answer.policyEvaluations.map((p) =>
          h('li', { dataset: { policyId: p.policyId ?? 'draft' } },
            `${p.policyName}${p.draft ? ' (draft)' : ''} · ${p.effect} · `,
            h('span', { className: 'outcome' }, p.outcome),
            p.error ? ` — ${p.error}` : null,
            p.failsClosed ? ' — fails closed' : null)))
        : h('p', { id: 'dry-run-policies' }, 'No policy was evaluated (the root quorum or an implicit rule decided).'),
      h('p', { className: 'hint' }, 'Nothing was saved.'),
    ];
  }

  function closeEditor() {
    editorSlot.replaceChildren();
    createButton.hidden = false;
  }

  context.container.append(createButton, editorSlot, empty, list);
  await reload();
}
