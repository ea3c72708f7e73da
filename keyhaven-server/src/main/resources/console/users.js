// The Users page: the organization's users with their email, tags and credentials; creating users (an email, an API
// public key, a passkey registered from this browser), user tags, attaching and detaching them, deleting users and
// their credentials. Every change is a stamped activity, and what the server made of it (done, waiting for
// consensus, refused) is shown as it answered. One query (get_organization) reads users and tags, so a passkey
// session is asked once per view.
import { query } from './api.js';
import { about, perform } from './actions.js';
import { isPasskeySession, registerPasskey } from './passkey.js';
import { actionButton as button, h, when } from './dom.js';

export const title = 'Users';

const USER_TAG = 'TAG_TYPE_USER';

function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

export async function render(context) {
  const { session } = context;
  const state = { users: [], tags: [] };
  const userList = h('ul', { id: 'user-list', className: 'cards', 'aria-labelledby': 'user-list-heading' });
  const tagList = h('ul', { id: 'tag-list', className: 'cards', 'aria-labelledby': 'tag-list-heading' });
  const noTags = h('p', { hidden: true }, 'No user tags yet.');
  const tagChoices = h('div', { className: 'choices' });

  const reload = async () => {
    try {
      const data = (await query(session, 'get_organization')).organizationData;
      if (!context.current()) return;
      state.users = data.users || [];
      state.tags = (data.tags || []).filter((tag) => tag.tagType === USER_TAG);
      draw();
    } catch (error) {
      context.complain(error);
    }
  };

  /** Submits an activity, reports its outcome and reads the page again; true when it is done. */
  const act = async (what, operation, type, parameters) => {
    context.clear();
    return (await perform(context, what, operation, type, parameters, reload)) !== null;
  };

  const tagName = (id) => state.tags.find((tag) => tag.tagId === id)?.tagName ?? id;

  function draw() {
    userList.replaceChildren(...state.users.map(userItem));
    tagList.replaceChildren(...state.tags.map(tagItem));
    noTags.hidden = state.tags.length > 0;
    tagChoices.replaceChildren(...(state.tags.length === 0
      ? [h('p', {}, 'No user tags yet: create one below.')]
      : state.tags.map((tag) => h('div', { className: 'choice' },
        h('input', { type: 'checkbox', id: `new-user-tag-${tag.tagId}`, value: tag.tagId }),
        h('label', { htmlFor: `new-user-tag-${tag.tagId}` }, tag.tagName)))));
  }

  function tagItem(tag) {
    const members = state.users.filter((user) => (user.userTags || []).includes(tag.tagId));
    const nameId = `tag-${tag.tagId}`;
    const item = h('li', { dataset: { tagId: tag.tagId } },
      h('div', { className: 'item-name', id: nameId }, tag.tagName),
      h('div', { className: 'item-meta' }, `${plural(members.length, 'user', 'users')} · ${tag.tagId}`));
    if (!context.readOnly) {
      item.append(h('div', { className: 'actions' }, button('Delete', () => act(
        `Delete tag ${tag.tagName}`, 'delete_user_tags', 'ACTIVITY_TYPE_DELETE_USER_TAGS',
        { userTagIds: [tag.tagId] }), { 'aria-describedby': nameId })));
    }
    return item;
  }

  function credentialItem(user, kind, credential) {
    const isApiKey = kind === 'apiKey';
    const id = isApiKey ? credential.apiKeyId : credential.authenticatorId;
    const name = isApiKey ? credential.apiKeyName : credential.authenticatorName;
    const shown = isApiKey ? credential.credential.publicKey : credential.credentialId;
    const mine = isApiKey
      ? !isPasskeySession(session) && credential.credential.publicKey === session.publicKey
      : isPasskeySession(session) && credential.credentialId === session.credentialId;
    const nameId = `credential-${id}`;
    const item = h('li', { dataset: { credentialId: id } },
      h('span', { className: 'credential-name', id: nameId }, `${isApiKey ? 'API key' : 'Passkey'} ${name}`),
      mine ? ' (this session signs with it)' : null,
      h('div', { className: 'item-meta' }, `${shown} · ${when(credential.createdAt)} · ${id}`));
    if (!context.readOnly) {
      const [operation, type, field, label] = isApiKey
        ? ['delete_api_keys', 'ACTIVITY_TYPE_DELETE_API_KEYS', 'apiKeyIds', 'API key']
        : ['delete_authenticators', 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS', 'authenticatorIds', 'passkey'];
      item.append(' ', button('Delete', () => act(`Delete ${label} ${name} of ${user.userName}`, operation, type,
        { userId: user.userId, [field]: [id] }), { 'aria-describedby': nameId }));
    }
    return item;
  }

  function userItem(user) {
    const apiKeys = user.apiKeys || [];
    const passkeys = user.authenticators || [];
    const providers = user.oauthProviders || [];
    const tags = user.userTags || [];
    const nameId = `user-${user.userId}`;
    const counts = [plural(apiKeys.length, 'API key', 'API keys'), plural(passkeys.length, 'passkey', 'passkeys')];
    if (providers.length > 0) counts.push(plural(providers.length, 'OAuth provider', 'OAuth providers'));
    const total = apiKeys.length + passkeys.length + providers.length;

    const tagChips = tags.map((id) => {
      const chipId = `user-${user.userId}-tag-${id}`;
      return h('li', { className: 'chip', dataset: { tagId: id } },
        h('span', { id: chipId }, tagName(id)),
        context.readOnly ? null : button('Detach', () => act(`Detach tag ${tagName(id)} from ${user.userName}`,
          'update_user_tag', 'ACTIVITY_TYPE_UPDATE_USER_TAG',
          { userTagId: id, addUserIds: [], removeUserIds: [user.userId] }), { 'aria-describedby': chipId }));
    });

    const item = h('li', { dataset: { userId: user.userId } },
      h('h4', { id: nameId, className: 'item-name' }, user.userName),
      h('div', { className: 'item-meta' },
        `${user.userEmail || 'no email'} · ${user.userId} · created ${when(user.createdAt)}`),
      h('div', { className: 'user-tags' }, 'Tags: ',
        tags.length === 0 ? 'none' : h('ul', { className: 'chips', 'aria-label': `Tags of ${user.userName}` },
          tagChips)),
      h('p', { className: 'credential-count' }, `${plural(total, 'credential', 'credentials')}: ${counts.join(', ')}`));
    if (total > 0) {
      item.append(h('ul', { className: 'credentials', 'aria-label': `Credentials of ${user.userName}` },
        apiKeys.map((key) => credentialItem(user, 'apiKey', key)),
        passkeys.map((passkey) => credentialItem(user, 'authenticator', passkey))));
    }
    if (!context.readOnly) item.append(userActions(user, nameId));
    return item;
  }

  function userActions(user, nameId) {
    const actions = h('div', { className: 'user-actions' });
    const attachable = state.tags.filter((tag) => !(user.userTags || []).includes(tag.tagId));
    if (attachable.length > 0) {
      const selectId = `attach-${user.userId}`;
      const select = h('select', { id: selectId },
        attachable.map((tag) => h('option', { value: tag.tagId }, tag.tagName)));
      actions.append(h('div', { className: 'inline' },
        h('label', { htmlFor: selectId }, 'Tag to attach'), select,
        button('Attach tag', () => act(`Attach tag ${tagName(select.value)} to ${user.userName}`,
          'update_user_tag', 'ACTIVITY_TYPE_UPDATE_USER_TAG',
          { userTagId: select.value, addUserIds: [user.userId], removeUserIds: [] }),
        { 'aria-describedby': nameId })));
    }

    actions.append(editUserForm(user, nameId), addApiKeyForm(user, nameId));

    const passkeyNameId = `passkey-name-${user.userId}`;
    const passkeyName = h('input', { id: passkeyNameId, value: 'console passkey', autocomplete: 'off' });
    actions.append(h('div', { className: 'inline' },
      h('label', { htmlFor: passkeyNameId }, 'Passkey name'), passkeyName,
      button('Register passkey', async () => {
        context.clear();
        const name = passkeyName.value.trim();
        if (!name) {
          context.complain(new Error('the passkey needs a name'));
          return;
        }
        let registration;
        try {
          registration = await registerPasskey({
            userName: user.userEmail || user.userName,
            displayName: user.userName,
            exclude: (user.authenticators || []).map((a) => a.credentialId),
          });
        } catch (error) {
          context.complain(about(`Register a passkey for ${user.userName}`, error));
          return;
        }
        await act(`Register passkey ${name} for ${user.userName}`, 'create_authenticators',
          'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
          { userId: user.userId, authenticators: [{ authenticatorName: name, ...registration }] });
      }, { 'aria-describedby': nameId })));

    // Deleting takes two steps: the first asks, the second deletes.
    const confirmation = h('div', { className: 'confirm', hidden: true });
    const deleteButton = h('button', { type: 'button', 'aria-describedby': nameId }, 'Delete user');
    deleteButton.addEventListener('click', () => {
      const questionId = `confirm-${user.userId}`;
      const cancel = h('button', { type: 'button' }, 'Cancel');
      const confirm = button('Delete', () => act(`Delete user ${user.userName}`, 'delete_users',
        'ACTIVITY_TYPE_DELETE_USERS', { userIds: [user.userId] }));
      cancel.addEventListener('click', () => {
        confirmation.hidden = true;
        confirmation.replaceChildren();
        deleteButton.hidden = false;
        deleteButton.focus();
      });
      confirmation.replaceChildren(h('div', { role: 'group', 'aria-labelledby': questionId },
        h('p', { id: questionId }, `Delete user ${user.userName} (${user.userId})? Its API keys and passkeys `
          + 'are deleted with it.'),
        h('div', { className: 'actions' }, confirm, cancel)));
      confirmation.hidden = false;
      deleteButton.hidden = true;
      cancel.focus();
    });
    actions.append(h('div', { className: 'actions' }, deleteButton), confirmation);
    return actions;
  }

  /** A small labelled form of text fields whose submit button runs `action(values)`; ids are prefixed. */
  function inlineForm(prefix, legend, fields, buttonLabel, describedBy, action) {
    const inputs = fields.map(([name, label, value]) => {
      const id = `${prefix}-${name}`;
      return [h('label', { htmlFor: id }, label),
        h('input', { id, name, value: value ?? '', autocomplete: 'off', spellcheck: false })];
    });
    const form = h('form', { novalidate: true, className: 'inline-form' },
      h('fieldset', {}, h('legend', {}, legend), inputs.flat(),
        h('button', { type: 'submit', 'aria-describedby': describedBy }, buttonLabel)));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const submitButton = form.querySelector('button[type="submit"]');
      submitButton.disabled = true;
      try {
        const values = Object.fromEntries(inputs.map(([, input]) => [input.name, input.value.trim()]));
        await action(values);
      } finally {
        submitButton.disabled = false;
      }
    });
    return form;
  }

  // update_user with the fields that changed: a name is required; an email, once set, can be changed, not removed
  // (the API has no way to clear it).
  function editUserForm(user, nameId) {
    return inlineForm(`edit-${user.userId}`, `Edit ${user.userName}`,
      [['userName', 'Rename to', user.userName], ['userEmail', 'Change email to', user.userEmail]], 'Save user', nameId,
      async ({ userName, userEmail }) => {
        context.clear();
        if (!userName) {
          context.complain(new Error('the user needs a name'));
          return;
        }
        const parameters = { userId: user.userId };
        if (userName !== user.userName) parameters.userName = userName;
        if (userEmail && userEmail !== (user.userEmail || '')) parameters.userEmail = userEmail;
        if (Object.keys(parameters).length === 1) {
          context.say(`Edit ${user.userName}: nothing changed.`);
          return;
        }
        await act(`Edit user ${user.userName}`, 'update_user', 'ACTIVITY_TYPE_UPDATE_USER', parameters);
      });
  }

  // create_api_keys (V2): a P-256 public key the operator made elsewhere; its private key never comes here.
  function addApiKeyForm(user, nameId) {
    return inlineForm(`add-key-${user.userId}`, `Add an API key to ${user.userName}`,
      [['apiKeyName', 'Key name', 'API key'], ['publicKey', 'Public key (P-256, hex)', '']], 'Add API key',
      nameId, async ({ apiKeyName, publicKey }) => {
        context.clear();
        if (!apiKeyName || !publicKey) {
          context.complain(new Error('the API key needs a name and a public key'));
          return;
        }
        await act(`Add API key ${apiKeyName} to ${user.userName}`, 'create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2',
          { userId: user.userId, apiKeys: [{ apiKeyName, publicKey, curveType: 'API_KEY_CURVE_P256' }] });
      });
  }

  const sections = [h('button', { type: 'button', onclick: () => { context.clear(); reload(); } }, 'Refresh')];
  if (context.readOnly) {
    sections.push(h('p', { className: 'note' }, 'Read-only: you are a user of the parent organization, which may '
      + 'read this sub-organization; the server refuses changes here.'));
  }
  sections.push(h('h3', { id: 'user-list-heading' }, 'All users'), userList,
    h('h3', { id: 'tag-list-heading' }, 'User tags'), noTags, tagList);
  if (!context.readOnly) sections.push(createTagForm(), createUserForm());
  context.container.append(...sections);
  await reload();

  function createTagForm() {
    const input = h('input', { id: 'new-tag-name', autocomplete: 'off' });
    const form = h('form', { id: 'create-tag-form', novalidate: true, 'aria-labelledby': 'create-tag-heading' },
      h('label', { htmlFor: 'new-tag-name' }, 'Tag name'), input,
      h('button', { type: 'submit' }, 'Create tag'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) {
        context.complain(new Error('the tag needs a name'));
        return;
      }
      const submitButton = form.querySelector('button[type="submit"]');
      submitButton.disabled = true;
      try {
        if (await act(`Create tag ${name}`, 'create_user_tag', 'ACTIVITY_TYPE_CREATE_USER_TAG',
          { userTagName: name, userIds: [] })) {
          input.value = '';
        }
      } finally {
        submitButton.disabled = false;
      }
    });
    return h('section', { 'aria-labelledby': 'create-tag-heading' },
      h('h3', { id: 'create-tag-heading' }, 'Create a user tag'), form);
  }

  function createUserForm() {
    const field = (id, label, properties = {}) => {
      const input = h('input', { id, autocomplete: 'off', spellcheck: false, ...properties });
      return [h('label', { htmlFor: id }, label), input];
    };
    const [nameLabel, name] = field('new-user-name', 'User name');
    const [emailLabel, email] = field('new-user-email', 'Email (optional)', { type: 'email' });
    const [keyLabel, apiKey] = field('new-user-api-key', 'API public key (optional, P-256, hex)');
    const [keyNameLabel, apiKeyName] = field('new-user-api-key-name', 'API key name', { value: 'API key' });
    const withPasskey = h('input', { type: 'checkbox', id: 'new-user-passkey' });
    const [passkeyLabel, passkeyName] = field('new-user-passkey-name', 'Name of the new user\'s passkey',
      { value: 'console passkey' });
    const form = h('form', { id: 'create-user-form', novalidate: true, 'aria-labelledby': 'create-user-heading' },
      nameLabel, name, emailLabel, email, keyLabel, apiKey, keyNameLabel, apiKeyName,
      h('fieldset', {}, h('legend', {}, 'Tags'), tagChoices),
      h('div', { className: 'choice' }, withPasskey,
        h('label', { htmlFor: 'new-user-passkey' }, 'Register a passkey from this browser')),
      passkeyLabel, passkeyName,
      h('button', { type: 'submit' }, 'Create user'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const submitButton = form.querySelector('button[type="submit"]');
      submitButton.disabled = true;
      try {
        await createUser();
      } finally {
        submitButton.disabled = false;
      }
    });

    async function createUser() {
      context.clear();
      const userName = name.value.trim();
      const userEmail = email.value.trim();
      const publicKey = apiKey.value.trim();
      const what = `Create user ${userName}`;
      if (!userName) {
        context.complain(new Error('the user needs a name'));
        return;
      }
      const user = {
        userName,
        apiKeys: publicKey
          ? [{ apiKeyName: apiKeyName.value.trim(), publicKey, curveType: 'API_KEY_CURVE_P256' }]
          : [],
        authenticators: [],
        oauthProviders: [],
        userTags: [...tagChoices.querySelectorAll('input:checked')].map((input) => input.value),
      };
      if (userEmail) user.userEmail = userEmail;
      if (withPasskey.checked) {
        try {
          const registration = await registerPasskey({ userName: userEmail || userName, displayName: userName });
          user.authenticators.push({ authenticatorName: passkeyName.value.trim(), ...registration });
        } catch (error) {
          context.complain(about(what, error));
          return;
        }
      }
      if (await act(what, 'create_users', 'ACTIVITY_TYPE_CREATE_USERS_V4', { users: [user] })) {
        for (const input of [name, email, apiKey]) input.value = '';
        apiKeyName.value = 'API key';
        withPasskey.checked = false;
      }
    }

    return h('section', { 'aria-labelledby': 'create-user-heading' },
      h('h3', { id: 'create-user-heading' }, 'Create a user'), form);
  }
}
