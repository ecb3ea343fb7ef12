import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedbackSender, type FeedbackReport } from '@/lib/errors/feedback-sender';
import { i18n } from '@/lib/i18n/i18n';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { renderWithProviders } from '@/testing/render';
import german from '../../../../../content/translations/de.json';
import english from '../../../../../content/translations/en.json';
import { FeedbackEntry } from './feedback-entry';
import { FEEDBACK_SUCCESS_MS, type FeedbackSettings } from './feedback-rules';
import FeedbackWidget from './feedback-widget';
import { signInForTests } from '@/testing/session';

const allRequired: FeedbackSettings = {
  showName: true,
  showEmail: true,
  isNameRequired: true,
  isEmailRequired: true,
};
const optional: FeedbackSettings = { ...allRequired, isNameRequired: false, isEmailRequired: false };

/** A sender whose answer the test gives: resolve or reject the last submission. */
function fakeSender() {
  const sent: FeedbackReport[] = [];
  let answer: { resolve: (id: string) => void; reject: (error: Error) => void } | undefined;
  setFeedbackSender((report) => {
    sent.push(report);
    return new Promise((resolve, reject) => {
      answer = { resolve, reject };
    });
  });
  return {
    sent,
    accept: () => act(async () => answer!.resolve('0123456789abcdef0123456789abcdef')),
    refuse: () => act(async () => answer!.reject(new Error('The error report tunnel answered 503'))),
  };
}

function renderWidget(settings: FeedbackSettings, user = userEvent.setup()) {
  renderWithProviders(<FeedbackWidget settings={settings} />);
  const open = () => user.click(screen.getByRole('button', { name: i18n.t('feedback-report-bug') }));
  const form = () => screen.getByRole('dialog', { name: i18n.t('feedback-report-bug') });
  const send = () => user.click(within(form()).getByRole('button', { name: i18n.t('feedback-submit') }));
  return { user, open, form, send };
}

describe('feedback widget (English)', () => {
  beforeAll(async () => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
    await i18n.changeLanguage('en');
  });
  afterEach(() => {
    setFeedbackSender(null);
    vi.useRealTimers();
  });

  it('opens a modal form with the focus in its first field, and Cancel gives the focus back to the button', async () => {
    const { user, open, form } = renderWidget(optional);
    expect(screen.queryByRole('dialog')).toBeNull();
    await open();
    expect(form()).toBeVisible();
    expect(within(form()).getByRole('textbox', { name: 'Name' })).toHaveFocus();
    await user.click(within(form()).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Report a Bug' })).toHaveFocus();
  });

  it('names every missing required field in one message, marks them, and sends nothing', async () => {
    const sender = fakeSender();
    const { open, form, send } = renderWidget(allRequired);
    await open();
    expect(within(form()).getByText('Description')).toHaveTextContent('Description (required)');
    await send();
    expect(within(form()).getByRole('alert')).toHaveTextContent(
      'Please enter in the following required fields: Name, Email, Description',
    );
    const name = within(form()).getByRole('textbox', { name: 'Name (required)' });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();
    expect(
      within(form()).getByRole('textbox', { name: 'Description (required)' }),
    ).toHaveAccessibleDescription(/Please enter in the following required fields/);
    expect(sender.sent).toEqual([]);
  });

  it('takes an error back as soon as its field is fixed, field by field', async () => {
    const { user, open, form, send } = renderWidget(allRequired);
    await open();
    await send();
    const name = within(form()).getByRole('textbox', { name: 'Name (required)' });
    const email = within(form()).getByRole('textbox', { name: 'Email (required)' });
    const description = within(form()).getByRole('textbox', { name: 'Description (required)' });
    await user.type(name, 'Erika');
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(within(form()).getByRole('alert')).toHaveTextContent(
      'Please enter in the following required fields: Email, Description',
    );
    await user.type(email, 'erika@example.com');
    await user.type(description, 'Broken');
    expect(within(form()).queryByRole('alert')).toBeNull();
    expect(description).not.toHaveAttribute('aria-invalid');
    expect(description).toHaveAccessibleDescription("What's the bug? What did you expect?");

    await user.clear(description);
    await user.type(description, '   ');
    await send();
    expect(within(form()).getByRole('alert')).toHaveTextContent(
      'Unable to submit feedback with empty message',
    );
    await user.type(description, 'Broken');
    expect(within(form()).queryByRole('alert')).toBeNull();
    expect(description).not.toHaveAttribute('aria-invalid');
  });

  it('refuses a message of spaces alone with the empty-message text', async () => {
    const sender = fakeSender();
    const { user, open, form, send } = renderWidget(optional);
    await open();
    await user.type(within(form()).getByRole('textbox', { name: /Description/ }), '   ');
    await send();
    expect(within(form()).getByRole('alert')).toHaveTextContent(
      'Unable to submit feedback with empty message',
    );
    expect(sender.sent).toEqual([]);
  });

  it('sends the values trimmed, leaves out empty optional fields, and shows the submitting state', async () => {
    const sender = fakeSender();
    const { user, open, form, send } = renderWidget(optional);
    await open();
    await user.type(within(form()).getByRole('textbox', { name: 'Name' }), '  Erika Muster ');
    await user.type(
      within(form()).getByRole('textbox', { name: /Description/ }),
      '  The points do not add up \n',
    );
    await send();
    expect(sender.sent).toEqual([{ name: 'Erika Muster', message: 'The points do not add up' }]);
    const busy = within(form()).getByRole('button', { name: 'Sending…' });
    // It takes no press, but keeps the focus it has (a disabled button would drop it to the page).
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    expect(busy).toHaveFocus();
    expect(within(form()).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(form().querySelector('form')).toHaveAttribute('aria-busy', 'true');
    await sender.accept();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Thank you for your report!');
  });

  it('keeps the form and its text when sending fails, and says so', async () => {
    const sender = fakeSender();
    const { user, open, form, send } = renderWidget(optional);
    await open();
    await user.type(within(form()).getByRole('textbox', { name: 'Email' }), ' erika@example.com ');
    await user.type(within(form()).getByRole('textbox', { name: /Description/ }), 'Broken');
    await send();
    expect(sender.sent).toEqual([{ email: 'erika@example.com', message: 'Broken' }]);
    await sender.refuse();
    expect(within(form()).getByRole('alert')).toHaveTextContent(
      'There was a problem submitting feedback, please wait and try again.',
    );
    const again = within(form()).getByRole('button', { name: 'Send Bug Report' });
    expect(again).toBeEnabled();
    expect(again).toHaveFocus();
    expect(within(form()).getByRole('textbox', { name: /Description/ })).toHaveValue('Broken');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('asks only for the message when name and e-mail are not configured', async () => {
    const sender = fakeSender();
    const { user, open, form, send } = renderWidget({ ...optional, showName: false, showEmail: false });
    await open();
    expect(within(form()).getAllByRole('textbox')).toHaveLength(1);
    expect(within(form()).getByRole('textbox', { name: 'Description (required)' })).toHaveFocus();
    await user.keyboard('It crashed');
    await send();
    expect(sender.sent).toEqual([{ message: 'It crashed' }]);
  });

  it('hides the thank-you message after 5 seconds', async () => {
    const sender = fakeSender();
    const { user, open, form, send } = renderWidget(optional);
    await open();
    await user.type(within(form()).getByRole('textbox', { name: /Description/ }), 'Slow page');
    await send();
    // The clock is the test's from the moment the message shows.
    vi.useFakeTimers();
    await sender.accept();
    expect(screen.getByRole('status')).toHaveTextContent('Thank you for your report!');
    act(() => vi.advanceTimersByTime(FEEDBACK_SUCCESS_MS - 1));
    expect(screen.getByRole('status')).toHaveTextContent('Thank you for your report!');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('hides the thank-you message on click', async () => {
    const sender = fakeSender();
    const { user, open, form, send } = renderWidget(optional);
    await open();
    await user.type(within(form()).getByRole('textbox', { name: /Description/ }), 'Typo on the FAQ');
    await send();
    await sender.accept();
    await user.click(screen.getByRole('button', { name: 'Thank you for your report!' }));
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });
});

const customer = {
  uuid: '9b2f7c1e-4a44-4c55-8f0e-2b8f1c6d7a10',
  language: 'de_DE',
  legalEntityId: 10,
  legalEntityIso: 'de',
  email: 'dora.demo@example.com',
  firstName: 'Dora',
  lastName: 'Demo',
  salutation: 'FRAU',
} as const;

/** A picture file as a phone's photo picker hands it over. */
const picture = (name: string, bytes: number, type = 'image/png') =>
  new File([new Uint8Array(bytes).fill(7)], name, { type });

describe('feedback widget: the signed-in customer and a screenshot', () => {
  beforeAll(async () => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
    await i18n.changeLanguage('en');
  });
  beforeEach(() => resetAppStore());
  afterEach(() => setFeedbackSender(null));

  it('starts with the signed-in customer’s name and e-mail, which stay editable, and starts so again after sending', async () => {
    signInForTests({ ...customer });
    const sender = fakeSender();
    const { user, open, form, send } = renderWidget(optional);
    await open();
    const name = within(form()).getByRole('textbox', { name: 'Name' });
    const email = within(form()).getByRole('textbox', { name: 'Email' });
    expect(name).toHaveValue('Dora Demo');
    expect(email).toHaveValue('dora.demo@example.com');
    await user.clear(name);
    await user.type(name, 'D. Demo');
    await user.type(within(form()).getByRole('textbox', { name: /Description/ }), 'Points missing');
    await send();
    expect(sender.sent).toEqual([
      { name: 'D. Demo', email: 'dora.demo@example.com', message: 'Points missing' },
    ]);
    await sender.accept();
    await open();
    expect(within(form()).getByRole('textbox', { name: 'Name' })).toHaveValue('Dora Demo');
    expect(within(form()).getByRole('textbox', { name: /Description/ })).toHaveValue('');
  });

  it('lets the customer empty a filled-in field: it is then not sent', async () => {
    signInForTests({ ...customer });
    const sender = fakeSender();
    const { user, open, form, send } = renderWidget(optional);
    await open();
    await user.clear(within(form()).getByRole('textbox', { name: 'Email' }));
    await user.type(within(form()).getByRole('textbox', { name: /Description/ }), 'Anonymous-ish');
    await send();
    expect(sender.sent).toEqual([{ name: 'Dora Demo', message: 'Anonymous-ish' }]);
  });

  it('fills in nothing for a visitor, nor a field the form does not show', async () => {
    const visitor = renderWidget(optional);
    await visitor.open();
    expect(within(visitor.form()).getByRole('textbox', { name: 'Name' })).toHaveValue('');
    expect(within(visitor.form()).getByRole('textbox', { name: 'Email' })).toHaveValue('');
  });

  it('sends a chosen screenshot with the report as an attachment, shown with its name and a remove button', async () => {
    const sender = fakeSender();
    const { user, open, form, send } = renderWidget(optional);
    await open();
    const input = within(form()).getByLabelText('Add a screenshot');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp');
    expect(input).toHaveAccessibleDescription(
      'Optional: a PNG, JPEG or WebP picture. A large one is made smaller to fit.',
    );
    await user.upload(input, picture('bug.png', 41_500));
    expect(within(form()).getByText('bug.png (42 kB)')).toBeVisible();
    expect(within(form()).getByRole('button', { name: 'Remove screenshot' })).toBeVisible();
    await user.type(within(form()).getByRole('textbox', { name: /Description/ }), 'See the picture');
    await send();
    expect(sender.sent).toHaveLength(1);
    const { attachment, ...report } = sender.sent[0]!;
    expect(report).toEqual({ message: 'See the picture' });
    expect(attachment).toMatchObject({ filename: 'bug.png', contentType: 'image/png' });
    expect(attachment!.data).toBeInstanceOf(Uint8Array);
    expect(attachment!.data).toEqual(new Uint8Array(41_500).fill(7));
    await sender.accept();
    await open();
    expect(within(form()).queryByText(/bug\.png/)).toBeNull();
  });

  it('refuses a screenshot over the limit that cannot be made smaller, naming the limit, and sends nothing until it is removed', async () => {
    const sender = fakeSender();
    const { user, open, form, send } = renderWidget(optional);
    await open();
    const input = within(form()).getByLabelText('Add a screenshot');
    // Not a real picture: the browser cannot draw it smaller (and jsdom draws nothing).
    await user.upload(input, picture('huge.png', 150_001));
    const tooLarge = 'The screenshot could not be made smaller than 150 kB. Please choose another picture.';
    await waitFor(() => expect(within(form()).getByRole('alert')).toHaveTextContent(tooLarge));
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(new RegExp(tooLarge.replace(/\./g, '\\.')));
    await user.type(within(form()).getByRole('textbox', { name: /Description/ }), 'Broken');
    await send();
    expect(within(form()).getByRole('alert')).toHaveTextContent(tooLarge);
    expect(input).toHaveFocus();
    expect(sender.sent).toEqual([]);

    await user.click(within(form()).getByRole('button', { name: 'Remove screenshot' }));
    expect(input).toHaveFocus();
    expect(within(form()).queryByRole('alert')).toBeNull();
    await send();
    expect(sender.sent).toEqual([{ message: 'Broken' }]);
  });

  it('takes exactly 150 kB, and refuses a file that is not a PNG, JPEG or WebP picture', async () => {
    const sender = fakeSender();
    const { open, form, send } = renderWidget(optional);
    // The picker offers only pictures, but a desktop picker can be switched to "all files".
    const user = userEvent.setup({ applyAccept: false });
    await open();
    const input = within(form()).getByLabelText('Add a screenshot');
    await user.upload(input, picture('notes.pdf', 1_000, 'application/pdf'));
    expect(within(form()).getByRole('alert')).toHaveTextContent('Please choose a PNG, JPEG or WebP picture.');
    await user.upload(input, picture('photo.jpg', 150_000, 'image/jpeg'));
    expect(within(form()).queryByRole('alert')).toBeNull();
    await user.type(within(form()).getByRole('textbox', { name: /Description/ }), 'Photo');
    await send();
    expect(sender.sent[0]!.attachment).toMatchObject({ filename: 'photo.jpg', contentType: 'image/jpeg' });
  });
});

describe('feedback widget (German)', () => {
  beforeAll(async () => {
    i18n.addResourceBundle('de', 'translation', german, true, true);
    await i18n.changeLanguage('de');
  });
  afterEach(() => setFeedbackSender(null));

  it('names the missing fields, the failure and the thanks in German', async () => {
    const sender = fakeSender();
    const { user, open, form, send } = renderWidget(allRequired);
    await open();
    expect(form()).toHaveAccessibleName('Fehler melden');
    await send();
    expect(within(form()).getByRole('alert')).toHaveTextContent(
      'Bitte fülle die folgenden Pflichtfelder aus: Name, E-Mail, Beschreibung',
    );
    await user.type(within(form()).getByRole('textbox', { name: 'Name (Pflichtfeld)' }), 'Erika');
    await user.type(
      within(form()).getByRole('textbox', { name: 'E-Mail (Pflichtfeld)' }),
      'erika@example.com',
    );
    await user.type(within(form()).getByRole('textbox', { name: /Beschreibung/ }), ' ');
    await send();
    expect(within(form()).getByRole('alert')).toHaveTextContent(
      'Feedback ohne Nachricht kann nicht gesendet werden',
    );
    await user.type(within(form()).getByRole('textbox', { name: /Beschreibung/ }), 'Punkte fehlen');
    await send();
    expect(within(form()).getByRole('button', { name: german['feedback-sending'] })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await sender.refuse();
    expect(within(form()).getByRole('alert')).toHaveTextContent(
      'Beim Senden deines Feedbacks ist ein Problem aufgetreten. Bitte warte einen Moment und versuche es erneut.',
    );
    await send();
    await sender.accept();
    expect(screen.getByRole('status')).toHaveTextContent('Vielen Dank für deinen Bericht!');
    expect(sender.sent.at(-1)).toEqual({
      name: 'Erika',
      email: 'erika@example.com',
      message: 'Punkte fehlen',
    });
  });

  afterAll(async () => {
    await i18n.changeLanguage('en');
  });
});

describe('the "Report a Bug" button in the frame', () => {
  beforeEach(() => resetAppStore());

  it('is absent without error-reporting consent and there with it', async () => {
    renderWithProviders(<FeedbackEntry />);
    expect(screen.queryByRole('button')).toBeNull();
    act(() => useAppStore.getState().setErrorReportingAllowed(true));
    expect(await screen.findByRole('button', { name: 'Report a Bug' })).toBeVisible();
    act(() => useAppStore.getState().setErrorReportingAllowed(false));
    expect(screen.queryByRole('button')).toBeNull();
  });
});
